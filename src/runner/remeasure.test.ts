import { describe, expect, it } from 'vitest';
import { makeBaseline } from '../results/baseline.js';
import { combineProcessRecords } from '../results/combine.js';
import { compareWithBaseline } from '../results/compare.js';
import { ratioFromPairs } from '../results/metrics.js';
import { testRatio, testRunRecord } from '../../test/support/run-record.js';
import type { Metric, RunError, RunRecord } from '../results/schema.js';
import { judgeWithSecondLook, type Remeasure } from './remeasure.js';

// Per-process speedups (8 processes, as `--processes 8`), judged against BASE with the ratio's 10% tolerance.
const BASE = [1.98, 2.02, 1.99, 2.01, 2.0, 1.97, 2.03, 2.0];
const STEADY = [1.99, 2.01, 2.0, 1.98, 2.02, 2.0, 1.99, 2.01]; // pass
const LOW = [1.5, 1.52, 1.49, 1.51, 1.5, 1.48, 1.52, 1.5]; // -25%: regressed
const OPEN = [1.5, 2.1, 1.53, 2.07, 1.56, 2.04, 1.59, 2.01]; // noisy: inconclusive; with STEADY pass, with LOW regressed

const ID = 'speedup.ratio';
const failure: RunError = { scenario: 'speedup', test: 'pairs', message: 'boom' };
const exact = (value: number): Metric => ({ id: 'memory.bytes', scenario: 'memory', kind: 'exact', value, unit: 'B' });
/** One process's ratio from interleaved pairs, a pair's ratio each (b takes 1 ms). */
const paired = (ratios: number[], id = ID): Metric => ({
  ...ratioFromPairs(id, { a: ratios, b: ratios.map(() => 1) }, { detail: 'pairs' }),
  scenario: 'speedup',
});
const times = (n: number, ratio: number) => Array.from({ length: n }, () => ratio);
/** K processes combined as measureInProcesses does: one value each of the speedup, plus `others`. */
const processes = (values: number[], ...others: Metric[]) => combineProcessRecords(values.map((v) => testRunRecord([testRatio(ID, v, [v, v]), ...others])));
const baselineOf = (record: RunRecord) => makeBaseline(record, 'test', {}, '2026-12-01T10:00:00.000Z');

/**
 * Runs the loop on `first` (from a `--processes k` run) against `base`, the measuring step
 * answering from `answers` in turn (null once they run out): what it asked, printed and decided.
 */
async function loop(first: RunRecord, k: number, base: RunRecord, ...answers: Array<RunRecord | null>) {
  return loopWith({ gateTiming: false }, first, k, base, ...answers);
}

async function loopWith(options: { gateTiming: boolean }, first: RunRecord, k: number, base: RunRecord, ...answers: Array<RunRecord | null>) {
  const baseline = baselineOf(base);
  const asked: Remeasure[] = [];
  const lines: string[] = [];
  const out = await judgeWithSecondLook(first, k, {
    judge: (r) => compareWithBaseline(r, baseline, { allowProfileMismatch: false, ...options }),
    measure: async (plan) => {
      asked.push(plan);
      return answers.shift() ?? null;
    },
    log: (line) => lines.push(line),
  });
  const verdict = (id = ID) => out.comparison.verdicts.find((v) => v.id === id)!;
  return { ...out, asked, lines, verdict };
}

describe('judge / re-measure loop, one process: one look', () => {
  it('measures nothing again when all pass', async () => {
    const first = testRunRecord([paired(times(4, 2)), exact(8)]);
    const out = await loop(first, 1, first, testRunRecord([paired(times(4, 2))]));
    expect(out.asked).toEqual([]);
    expect(out.lines).toEqual([]);
    expect(out.record).toBe(first);
    expect(out.comparison.verdicts.map((v) => v.verdict)).toEqual(['pass', 'pass']);
  });

  it('against a K-process baseline, a ratio far outside the prediction interval regresses at once, gates, and is not measured again', async () => {
    const out = await loop(testRunRecord([paired(times(4, 1.5))]), 1, processes(BASE), testRunRecord([paired(times(12, 2))]));
    expect(out.asked).toEqual([]);
    expect(out.verdict()).toMatchObject({ verdict: 'regressed', gates: true, process: { method: 'prediction', processes: [8, 1] } });
    expect(out.comparison.exitCode).toBe(1);
  });

  it('against a one-process baseline with no calibration, a ratio whose CI lies below the band is information: not measured again, not gating', async () => {
    const out = await loop(testRunRecord([paired(times(4, 1.5))]), 1, testRunRecord([paired(times(4, 2))]), testRunRecord([paired(times(12, 2))]));
    expect(out.asked).toEqual([]);
    expect(out.verdict()).toMatchObject({ verdict: 'regressed', gates: false });
    expect(out.verdict().process).toBeUndefined();
    expect(out.comparison.exitCode).toBe(0);
  });

  it('K processes against a one-process baseline (no calibration): information, not measured again', async () => {
    const out = await loop(processes(OPEN), 8, testRunRecord([testRatio(ID, 2, [1.9, 2.1])]), processes(STEADY));
    expect(out.verdict()).toMatchObject({ gates: false });
    expect(out.verdict().process).toBeUndefined();
    expect(out.asked).toEqual([]);
  });
});

describe('judge / re-measure loop, K processes (the second look)', () => {
  it('measures nothing again when all pass', async () => {
    const first = processes(STEADY);
    const out = await loop(first, 8, processes(BASE), processes(LOW));
    expect(out.asked).toEqual([]);
    expect(out.record).toBe(first);
    expect(out.verdict()).toMatchObject({ verdict: 'pass', process: { processes: [8, 8] } });
  });

  it.each([
    ['pass', STEADY, 0],
    ['regressed', LOW, 1],
  ] as const)('gives an inconclusive ratio K more processes once and judges all 2K per-process values: %s', async (final, more, exitCode) => {
    const out = await loop(processes(OPEN), 8, processes(BASE), processes(more));
    expect(out.asked).toEqual([{ how: 'extend', ids: [ID], scenarios: ['speedup'], processes: 8 }]);
    expect(out.lines).toEqual(['\nInconclusive across processes: speedup.ratio; measuring 8 more processes of speedup once.']);
    expect(out.verdict()).toMatchObject({ verdict: final, gates: true, process: { processes: [8, 16] } });
    expect(out.verdict().current!.processes).toEqual([...OPEN, ...more]);
    expect(out.comparison.exitCode).toBe(exitCode);
  });

  it('stops after the second look: inconclusive then stays inconclusive', async () => {
    const out = await loop(processes(OPEN), 8, processes(BASE), processes(OPEN), processes(STEADY));
    expect(out.asked).toHaveLength(1);
    expect(out.verdict()).toMatchObject({ verdict: 'inconclusive', process: { processes: [8, 16] } });
    expect(out.comparison.exitCode).toBe(0);
  });

  it('takes a regressed ratio as final: significant and beyond the tolerance is not measured again', async () => {
    const out = await loop(processes(LOW), 8, processes(BASE), processes(STEADY));
    expect(out.asked).toEqual([]);
    expect(out.verdict().verdict).toBe('regressed');
    expect(out.comparison.exitCode).toBe(1);
  });
});

describe('judge / re-measure loop, what is never measured again', () => {
  it('never measures an exact metric again (no noise), with one process or K, and measures only the open ratio beside one', async () => {
    const single = await loop(testRunRecord([paired(times(4, 2)), exact(9)]), 1, testRunRecord([paired(times(4, 2)), exact(8)]));
    expect(single.asked).toEqual([]);
    expect(single.verdict('memory.bytes').verdict).toBe('regressed');
    expect(single.comparison.exitCode).toBe(1);
    const many = await loop(processes(STEADY, exact(9)), 8, processes(BASE, exact(8)));
    expect(many.asked).toEqual([]);
    expect(many.comparison.exitCode).toBe(1);
    const beside = await loop(processes(OPEN, exact(9)), 8, processes(BASE, exact(8)), processes(STEADY, exact(9)));
    expect(beside.asked.map((p) => p.ids)).toEqual([[ID]]);
    expect(beside.verdict('memory.bytes').verdict).toBe('regressed');
  });

  it('never measures a time again, though under --gate-timing it is judged across processes too', async () => {
    const time = (v: number): Metric => ({ id: 'speedup.upload', scenario: 'speedup', kind: 'time', value: v, unit: 'ms' });
    const perProcess = (values: number[]) => combineProcessRecords(values.map((v) => testRunRecord([time(v)])));
    // Noisy enough that the interval does not rule out the time's 2 x 50% for the worse.
    const out = await loopWith({ gateTiming: true }, perProcess([1, 6, 1.2, 5.5, 1.4, 5, 1.6, 4.5]), 8, perProcess(BASE));
    expect(out.verdict('speedup.upload')).toMatchObject({ verdict: 'inconclusive', gates: true });
    expect(out.asked).toEqual([]);
    // Without --gate-timing the time is not judged: information, no cross-process test.
    const info = await loop(perProcess([1, 6, 1.2, 5.5, 1.4, 5, 1.6, 4.5]), 8, perProcess(BASE));
    expect(info.verdict('speedup.upload')).toMatchObject({ gates: false });
    expect(info.verdict('speedup.upload').process).toBeUndefined();
  });
});

describe('judge / re-measure loop, a failed second measurement', () => {
  it('says in the record that the second measurement produced no record, and judges the first alone', async () => {
    const many = await loop(processes(OPEN), 8, processes(BASE), null);
    expect(many.verdict()).toMatchObject({ verdict: 'inconclusive', process: { processes: [8, 8] } });
    expect(many.record.notes).toEqual([
      'Re-measuring speedup.ratio: one of the 8 more processes produced no run record (no scenario reached a backend); judged on the first measurement alone.',
    ]);
  });

  it("keeps the second look's failed processes: the run fails", async () => {
    const more = combineProcessRecords(STEADY.map((v, k) => testRunRecord([testRatio(ID, v, [v, v])], k === 1 ? { errors: [failure] } : {})));
    const out = await loop(processes(OPEN), 8, processes(BASE), more);
    expect(out.verdict().verdict).toBe('pass');
    expect(out.record.errors).toEqual([{ ...failure, test: 'pairs (process 2)' }]);
    expect(out.comparison.exitCode).toBe(1);
  });
});
