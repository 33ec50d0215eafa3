import { cpSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../../test/support/temp-folder.js';
import { couldNotJudge } from './judge.js';
import { judgeMachine, readMachine, recordedAdapter } from './machine.js';
import { classCodeProblem, resolveMachineRoot } from './sysfs.js';

// Issue 34, item 4: a sysfs copy whose GPU's 'class' file is garbage found no GPU and passed
// (exit 0); the file is now named and the function judged unknown, not absent.
const FIXTURE = resolve(import.meta.dirname, '../../../fixtures/sysfs/gen3-x8-degraded');
const GPU = '0000:1a:00.0';
const temp = tempFolder('gtp-unparsed-sysfs-');

/** A copy of the fixture with the GPU's class file replaced by `text`. */
function copyWithClass(name: string, text: string): string {
  const copy = temp.at(name);
  cpSync(FIXTURE, copy, { recursive: true, verbatimSymlinks: true });
  writeFileSync(realpathSync(join(copy, 'sys/bus/pci/devices', GPU, 'class')), text);
  return copy;
}
const judged = (copy: string) => {
  const root = resolveMachineRoot(copy);
  const reading = readMachine(root);
  return { reading, ...judgeMachine(reading, recordedAdapter(root.recorded)) };
};

describe('a PCI class file that cannot be parsed', () => {
  it('is a problem only when present and not 0x%06x', () => {
    expect(classCodeProblem('0x030200\n')).toBeNull();
    expect(classCodeProblem(null)).toBeNull();
    expect(classCodeProblem('garbage\n')).toBe('"garbage" is not a PCI class code (0x%06x, e.g. 0x030200)');
    expect(classCodeProblem('0x0302')).toMatch(/is not a PCI class code/);
  });

  it('makes the GPU unknown, named with its file: the match, its link verdict, and "could not judge"', () => {
    const copy = copyWithClass('garbled', 'garbage\n');
    const { reading, verdict, checks } = judged(copy);
    expect(reading.devices).toEqual([]);
    expect(reading.unparsed).toEqual([
      { bdf: GPU, file: join(copy, 'sys/bus/pci/devices', GPU, 'class'), problem: '"garbage" is not a PCI class code (0x%06x, e.g. 0x030200)' },
    ]);
    expect(verdict.match).toBe('unknown');
    expect(verdict.links).toEqual([{ bdf: GPU, verdict: 'unknown', currentGBps: null, capableGBps: null, bottleneck: null, internal: [] }]);
    expect(checks.find((c) => c.id === 'physical.unparsed.0000-1a-00-0')).toMatchObject({
      status: 'warn',
      reason: expect.stringContaining(`${GPU}/class: "garbage"`),
    });
    expect(checks.find((c) => c.id === 'physical.match')?.reason).toMatch(/^UNKNOWN: .*but 0000:1a:00\.0 cannot be read/);
    expect(couldNotJudge(checks)).toBe(true);
  });

  it('leaves the intact copy as it was: the degraded link found, judged', () => {
    const { verdict, checks } = judged(copyWithClass('intact', '0x030200\n'));
    expect(verdict.match).toBe('matched');
    expect(verdict.links.map((l) => [l.bdf, l.verdict])).toEqual([[GPU, 'degraded']]);
    expect(couldNotJudge(checks)).toBe(false);
  });
});
