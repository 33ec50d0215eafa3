import { mkdtemp, writeFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { testRatio, testRunRecord } from '../../../test/support/run-record.js';
import { baselinePathFor, makeBaseline } from '../../results/baseline.js';
import { combineProcessRecords } from '../../results/combine.js';
import type { RunRecord } from '../../results/schema.js';
import { readRunRecord, writeJsonAtomic } from '../../results/storage.js';
import type { Remeasure } from '../../runner/remeasure.js';
import { judgePerf } from './judge.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

// Per-process speedups as in src/runner/remeasure.test.ts: a steady baseline, and a noisy run the
// permutation test of 8 + 8 processes leaves inconclusive (so a second look is asked).
const ID = 'speedup.ratio';
const BASE = [1.98, 2.02, 1.99, 2.01, 2.0, 1.97, 2.03, 2.0];
const STEADY = [1.99, 2.01, 2.0, 1.98, 2.02, 2.0, 1.99, 2.01];
const OPEN = [1.5, 2.1, 1.53, 2.07, 1.56, 2.04, 1.59, 2.01];
const processes = (values: number[]) => combineProcessRecords(values.map((v) => testRunRecord([testRatio(ID, v, [v, v])])));

const temp = tempFolder('gtp-perf-judge-');

/** A baselines folder holding `record` accepted as its profile's baseline. */
async function baselinesOf(record: RunRecord): Promise<string> {
  const baselines = await mkdtemp(temp.at('baselines-'));
  await writeJsonAtomic(baselinePathFor(record.profile.id, record.scale, baselines), makeBaseline(record, 'test', {}, '2026-12-01T10:00:00.000Z'));
  return baselines;
}

const judging = { allowProfileMismatch: false, gateTiming: false };
const never = () => Promise.reject(new Error('measured again'));

describe("perf's judge phase", () => {
  it('with no baseline for the profile judges nothing and names the file it looked for', async () => {
    const record = processes(STEADY);
    const baselines = await mkdtemp(temp.at('empty-'));
    const judged = await judgePerf({ baseline: { file: null, dir: baselines }, judging, processes: 8 }, { record, recordPath: 'r.json' }, never);
    expect(judged).toEqual({ record, recordPath: 'r.json', comparison: null, baselinePath: baselinePathFor(record.profile.id, 'quick', baselines) });
  });

  it('judges against the baseline; a steady run is measured once', async () => {
    const baselines = await baselinesOf(processes(BASE));
    const judged = await judgePerf(
      { baseline: { file: null, dir: baselines }, judging, processes: 8 },
      { record: processes(STEADY), recordPath: 'r.json' },
      never,
    );
    expect(judged.comparison?.verdicts.map((v) => [v.id, v.verdict])).toEqual([[ID, 'pass']]);
    expect(judged.comparison?.exitCode).toBe(0);
  });

  it('measures an open ratio once more through the step it is given, and judges the combined record', async () => {
    const baselines = await baselinesOf(processes(BASE));
    const asked: Remeasure[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const judged = await judgePerf(
        { baseline: { file: null, dir: baselines }, judging, processes: 8 },
        { record: processes(OPEN), recordPath: 'r.json' },
        (plan) => {
          asked.push(plan);
          return Promise.resolve(processes(STEADY));
        },
      );
      expect(asked).toEqual([expect.objectContaining({ scenarios: ['speedup'], processes: 8 })]);
      expect(judged.record.metrics.find((m) => m.id === ID)?.processes).toHaveLength(16);
      expect(judged.comparison?.verdicts.map((v) => v.verdict)).toEqual(['pass']);
    } finally {
      log.mockRestore();
    }
  });

  it('a baseline that went bad after the plan read it keeps the measured record and says where', async () => {
    const record = processes(STEADY);
    const baselines = await mkdtemp(temp.at('bad-'));
    await writeFile(baselinePathFor(record.profile.id, 'quick', baselines), '{ not json');
    const recordPath = temp.at('kept.json');
    await expect(judgePerf({ baseline: { file: null, dir: baselines }, judging, processes: 8 }, { record, recordPath }, never)).rejects.toThrow(
      `; the run record was kept at ${recordPath}`,
    );
    expect((await readRunRecord(recordPath)).metrics).toEqual(record.metrics);
  });
});
