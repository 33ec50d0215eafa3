import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { testAbResult } from '../../../test/support/ab-result.js';
import { OutputPathError } from '../../results/output-guard.js';
import { RunInputError } from '../../runner/perf.js';
import { parseCommandLine } from '../args.js';
import { type AbCommandArgs, planAb } from './plan.js';
import { writeAb } from './write.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

const temp = tempFolder('gtp-ab-phases-');

function abArgs(argv: string[]): AbCommandArgs {
  const args = parseCommandLine(['ab', '--base', 'HEAD', ...argv], {});
  if (args.command !== 'ab') throw new Error('not ab');
  return args;
}

describe("ab's plan phase", () => {
  it('carries the arms, what they measure and every output as plain values', async () => {
    const json = temp.at('ab.json');
    const plan = await planAb(abArgs(['--processes', '6', '--ratios-only', '--json', json, '--junit', temp.at('ab.xml')]));
    expect(plan.measure).toEqual({ base: 'HEAD', head: null, scenarios: ['speedup', 'dtypes'], processes: 6, backend: 'auto', kinds: ['ratio'] });
    expect(plan).toMatchObject({ json, markdown: null, jobSummary: null });
    expect(plan.exports.map((t) => [t.flag, t.path])).toEqual([['--junit', temp.at('ab.xml')]]);
  });

  it('refuses before any checkout: too few processes, scenarios with nothing to judge, a foreign file as an output', async () => {
    await expect(planAb(abArgs(['--processes', '2']))).rejects.toThrow(RunInputError);
    await expect(planAb(abArgs(['--scenario', '1', '--processes', '6']))).rejects.toThrow(/mnist-loader records no ratio or time metric/);
    const foreign = temp.at('notes.md');
    await writeFile(foreign, 'my notes\n');
    await expect(planAb(abArgs(['--processes', '6', '--markdown', foreign]))).rejects.toThrow(OutputPathError);
  });
});

describe("ab's write phase", () => {
  it('prints the verdicts, writes the files the plan named and the job summary, and exits with the result', async () => {
    const [json, markdown, summary] = [temp.at('w.json'), temp.at('w.md'), temp.at('summary.md')] as const;
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const result = testAbResult();
      expect(await writeAb({ json, markdown, exports: [], jobSummary: summary }, result)).toBe(result.exitCode);
      expect(JSON.parse(await readFile(json, 'utf8'))).toEqual(result);
      expect(await readFile(markdown, 'utf8')).toContain('mnist-transfer.speedup');
      expect(await readFile(summary, 'utf8')).toBe(await readFile(markdown, 'utf8'));
      expect(log.mock.calls.join('\n')).toContain('mnist-transfer.speedup');
    } finally {
      log.mockRestore();
    }
  });
});
