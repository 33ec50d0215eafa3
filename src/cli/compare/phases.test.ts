import { mkdtemp, readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testRunRecord } from '../../../test/support/run-record.js';
import { baselinePathFor, makeBaseline } from '../../results/baseline.js';
import { RecordFileError, writeJsonAtomic } from '../../results/storage.js';
import { parseCommandLine } from '../args.js';
import { judgeCompare } from './judge.js';
import { type CompareCommandArgs, planCompare } from './plan.js';
import { writeCompare } from './write.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

const exact = (value: number) => ({ id: 'memory.bytes', scenario: 'memory', kind: 'exact' as const, value, unit: 'B' });
const RUN = testRunRecord([exact(8)]);

const temp = tempFolder('gtp-compare-phases-');
let runPath: string;
/** A baselines folder holding RUN as its profile's baseline, and one with none. */
let baselines: string;
let empty: string;
beforeAll(async () => {
  runPath = temp.at('run.json');
  await writeJsonAtomic(runPath, RUN);
  baselines = await mkdtemp(temp.at('baselines-'));
  empty = await mkdtemp(temp.at('empty-'));
  await writeJsonAtomic(baselinePathFor(RUN.profile.id, 'quick', baselines), makeBaseline(RUN, 'test', {}, '2026-12-01T10:00:00.000Z'));
});

function compareArgs(argv: string[]): CompareCommandArgs {
  const args = parseCommandLine(['compare', ...argv], {});
  if (args.command !== 'compare') throw new Error('not compare');
  return args;
}

/** Runs `work` with the console's lines collected. */
async function quietly<T>(work: () => Promise<T>): Promise<{ value: T; out: string }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const value = await work();
    return { value, out: log.mock.calls.map((c) => c.join(' ')).join('\n') };
  } finally {
    log.mockRestore();
  }
}

describe("compare's plan phase", () => {
  it('reads the run and checks the exports asked for, says which run it judges', async () => {
    const md = temp.at('verdicts.md');
    const { value: plan, out } = await quietly(() => planCompare(compareArgs([runPath, '--baselines', baselines, '--markdown', md, '--gate-timing'])));
    expect(plan).toMatchObject({ runPath, run: RUN, baseline: { file: null, dir: baselines }, judging: { allowProfileMismatch: false, gateTiming: true } });
    expect(plan.exports.map((t) => [t.path, t.flag])).toEqual([[md, '--markdown']]);
    expect(out).toBe(`Run: ${runPath} (profile ${RUN.profile.id}, quick, ${RUN.createdAt})`);
  });

  it('an unreadable run stops it (exit 2), nothing said', async () => {
    await expect(quietly(() => planCompare(compareArgs([temp.at('missing.json')])))).rejects.toThrow(RecordFileError);
  });
});

describe("compare's judge phase", () => {
  const judging = { allowProfileMismatch: false, gateTiming: false };

  it('finds and names the baseline, and judges the run against it', async () => {
    const { value, out } = await quietly(() => judgeCompare({ run: RUN, baseline: { file: null, dir: baselines }, judging }));
    expect(value.comparison?.verdicts.map((v) => [v.id, v.verdict])).toEqual([['memory.bytes', 'pass']]);
    expect(out).toBe(`Baseline: ${value.baselinePath} (accepted from test at 2026-12-01T10:00:00.000Z)`);
  });

  it('without a baseline judges nothing and names the file it looked for', async () => {
    const { value, out } = await quietly(() => judgeCompare({ run: RUN, baseline: { file: null, dir: empty }, judging }));
    expect(value).toEqual({ baselinePath: baselinePathFor(RUN.profile.id, 'quick', empty), comparison: null });
    expect(out).toBe('');
  });
});

describe("compare's write phase", () => {
  const plan = { run: RUN, runPath: 'run.json', exports: [], jobSummary: null, color: false };

  it('no baseline: says how to accept the run and exits 3', async () => {
    const { value, out } = await quietly(() => writeCompare(plan, { baselinePath: 'b/p.json', comparison: null }));
    expect(value).toBe(3);
    expect(out).toMatch(/^No baseline for profile webgpu-lavapipe-x64 \(quick scale\) at b\/p\.json: nothing compared\. Accept this run with: /);
  });

  it('prints the verdicts, writes every export asked for and the job summary, and exits with the verdicts', async () => {
    const judged = await quietly(() =>
      judgeCompare({ run: RUN, baseline: { file: null, dir: baselines }, judging: { allowProfileMismatch: false, gateTiming: false } }),
    );
    const md = temp.at('written.md');
    const summary = temp.at('summary.md');
    const { value: planned } = await quietly(() => planCompare(compareArgs([runPath, '--baselines', baselines, '--markdown', md])));
    const { value } = await quietly(() => writeCompare({ ...plan, exports: planned.exports, jobSummary: summary }, judged.value));
    expect(value).toBe(0);
    expect(await readFile(md, 'utf8')).toContain('memory.bytes');
    expect(await readFile(summary, 'utf8')).toContain('memory.bytes');
  });
});
