// The phases of `gtp bisect` on plain values: the plan (range resolved, refusals before anything
// is checked out), the judge (exit code and table) and the write (console, --json, exit code).
// The search between them is unit-tested in src/runner/bisect.test.ts.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { testProcessVerdict } from '../../test/support/ab-result.js';
import type { BisectProbe, BisectResult } from '../results/ab-result.js';
import { git } from '../runner/ab.js';
import { RunInputError } from '../runner/perf.js';
import { type BisectArgs, judgeBisect, planBisect, writeBisect } from './bisect.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const args = (over: Partial<BisectArgs> = {}): BisectArgs => ({
  command: 'bisect',
  good: 'HEAD~1',
  bad: 'HEAD',
  metric: null,
  scenarios: [],
  processes: 8,
  json: null,
  force: false,
  backend: 'cpu',
  ratiosOnly: false,
  ...over,
});

const speedup = (verdict: 'regressed' | 'pass', change: number) =>
  testProcessVerdict('preprocess.speedup', 'ratio', verdict, 2, change, [change - 0.05, change + 0.05]);
const hostTime = testProcessVerdict('preprocess.time.host-float32', 'time', 'inconclusive', 1, 0.07, [-0.2, 0.4]);
const probe = (commit: string, outcome: BisectProbe['outcome'], over: Partial<BisectProbe> = {}): BisectProbe => ({
  commit: commit.padEnd(40, '0'),
  subject: `commit ${commit}`,
  outcome,
  verdicts: [speedup(outcome === 'worse' ? 'regressed' : 'pass', outcome === 'worse' ? -0.67 : 0.01)],
  decidedBy: 'preprocess.speedup',
  information: [hostTime],
  looks: 1,
  processes: [8, 8],
  errors: [],
  ...over,
});
const result = (over: Partial<BisectResult> = {}): BisectResult => {
  const probes = [probe('e', 'worse', { decidedBy: undefined }), probe('b', 'same', { looks: 3, processes: [24, 24] }), probe('c', 'worse')];
  return {
    good: 'a'.padEnd(40, '0'),
    bad: probes[0]!.commit,
    commits: 5,
    follows: ['preprocess.speedup'],
    probes,
    culprit: probes[2]!,
    reason: null,
    minutes: 2,
    ...over,
  };
};

describe('planBisect: every input checked before anything is checked out', () => {
  it('resolves both ends and lists the first-parent commits after the good end', async () => {
    const plan = await planBisect(args({ json: 'results/x.json', metric: 'mnist-transfer.speedup' }));
    const [good, bad] = await Promise.all([git(['rev-parse', 'HEAD~1']), git(['rev-parse', 'HEAD'])]);
    expect(plan.search.range).toEqual({ good, bad, commits: [bad] });
    expect(plan.search).toMatchObject({ good: 'HEAD~1', bad: 'HEAD', metric: 'mnist-transfer.speedup', processes: 8, kinds: ['ratio', 'time'] });
    expect(plan.json).toBe('results/x.json');
  });

  it('refuses an end that is not a commit, and an empty range (exit 2), naming the flag', async () => {
    await expect(planBisect(args({ good: 'no-such-ref-44' }))).rejects.toThrow(
      new RunInputError('--good no-such-ref-44: not a commit, branch or tag of this repository'),
    );
    await expect(planBisect(args({ good: 'HEAD', bad: 'HEAD~1' }))).rejects.toThrow(/^--good HEAD --bad HEAD~1: no first-parent commit after the good end/);
    await expect(planBisect(args({ processes: 3 }))).rejects.toThrow(/^--processes 3: /);
  });
});

describe('judgeBisect and writeBisect', () => {
  const temp = tempFolder('gtp-bisect-phases-');

  it('a culprit is exit 0; the table says what decides, the looks, and the information apart', async () => {
    const verdict = await judgeBisect(result());
    expect(verdict.exitCode).toBe(0);
    expect(verdict.text).toMatch(/^Deciding: preprocess\.speedup \(worse at the bad end, or --metric/m);
    expect(verdict.text).toMatch(/preprocess\.speedup \+1\.0% pass \(decides\)/);
    expect(verdict.text).toMatch(/3 \(a third\)/);
    expect(verdict.text).toMatch(/information \(never decides\)/);
    expect(verdict.text).toMatch(/preprocess\.time\.host-float32 \+7\.0% inconclusive/);
    expect(verdict.text).toMatch(/Culprit: c0{11} commit c/);
  });

  it('no culprit is exit 1, with why; the result goes to --json as it is', async () => {
    const none = result({ culprit: null, reason: 'b000 could not be judged (preprocess.speedup inconclusive after 3 looks)' });
    const verdict = await judgeBisect(none);
    expect(verdict.exitCode).toBe(1);
    expect(verdict.text).toMatch(/Not found: b000 could not be judged/);
    const json = temp.at('bisect.json');
    expect(await writeBisect({ json }, none, verdict)).toBe(1);
    expect(JSON.parse(await readFile(json, 'utf8'))).toEqual(none);
    expect(await writeBisect({ json: null }, result(), await judgeBisect(result()))).toBe(0);
  });
});
