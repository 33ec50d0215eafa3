import { describe, expect, it } from 'vitest';
import type { Metric } from './schema.js';
import { beyondBand, flagged, informational, judgeMetric, judgingBasis } from './verdict.js';

const exact = (value: number): Metric => ({ id: 'x.bytes', scenario: 's', kind: 'exact', value, unit: 'B' });
const ratio = (value: number, ci?: [number, number]): Metric => ({ id: 'x.speedup', scenario: 's', kind: 'ratio', value, unit: 'x', ci, n: 30 });
const time = (value: number): Metric => ({ id: 'x.time', scenario: 's', kind: 'time', value, unit: 'ms' });
const quality = (value: number): Metric => ({ id: 'x.diff', scenario: 's', kind: 'quality', value, unit: '', bound: { max: 1e-6 } });
const opts = { tolerance: 0.1, gateTiming: false };

describe('judgeMetric', () => {
  it('judges each direction both ways: a ratio where smaller is better regresses when it rises (issue 40)', () => {
    const step = (value: number, processes?: number[]): Metric => ({
      id: 'training.step-time-vs-resident.cpu-normalize',
      scenario: 'training',
      kind: 'ratio',
      value,
      unit: 'x',
      ...(processes ? { processes } : {}),
    });
    const eight = [0.94, 0.95, 0.93, 0.94, 0.96, 0.94, 0.93, 0.95];
    // A record of schema 4 carries no direction: its id says smaller is better (directionOf's table).
    expect(judgeMetric(step(0.94, eight), step(2.81), opts)).toMatchObject({ verdict: 'regressed', gates: true });
    expect(judgeMetric(step(0.94, eight), step(0.31), opts).verdict).toBe('improved');
    // Declared, the same: and a speedup of the same values reads the other way.
    const declared = (m: Metric, direction: Metric['direction']): Metric => ({ ...m, direction });
    expect(judgeMetric(declared(step(0.94, eight), 'smaller'), declared(step(2.81), 'smaller'), opts).verdict).toBe('regressed');
    expect(judgeMetric(declared(step(0.94, eight), 'bigger'), declared(step(2.81), 'bigger'), opts).verdict).toBe('improved');
    // One process each (information only), the CI rule flips as well.
    expect(judgeMetric(step(0.94), { ...step(2.81), ci: [2.7, 2.9] }, opts).verdict).toBe('regressed');
    expect(judgeMetric(step(0.94), { ...step(0.31), ci: [0.3, 0.32] }, opts).verdict).toBe('improved');
    expect(beyondBand(judgeMetric(step(0.94), step(2.81), opts))).toBe(true);
    expect(beyondBand(judgeMetric(step(0.94), step(0.31), opts))).toBe(false);
    // A time: longer regresses, shorter improves; declared bigger-is-better, the reverse.
    expect(judgeMetric(time(1), time(3), opts).verdict).toBe('regressed');
    expect(judgeMetric(time(3), time(1), opts).verdict).toBe('improved');
    expect(judgeMetric(declared(time(1), 'bigger'), declared(time(3), 'bigger'), opts).verdict).toBe('improved');
  });

  it('never judges information (the sync floor, a computed limit), even under --gate-timing', () => {
    const floor = (value: number, processes: number[]): Metric => ({ id: 'g.stage-ms.sync-floor', scenario: 's', kind: 'time', value, unit: 'ms', processes });
    const v = judgeMetric(floor(0.1, [0.1, 0.11, 0.09, 0.1]), floor(0.5, [0.5, 0.52, 0.49, 0.5]), { ...opts, gateTiming: true });
    expect(v.gates).toBe(false);
    expect(v.process).toBeUndefined();
  });

  it('says a change from 0 ms in words, never NaN% (issue 40, item 6)', () => {
    expect(judgeMetric(time(0), time(0), opts).reason).toMatch(/\(\+0%, tolerance 10%\)/);
    const from0 = judgeMetric(time(0), time(2), opts);
    expect(from0.reason).toMatch(/\(from 0, tolerance/);
    expect(from0.reason).not.toMatch(/NaN|Infinity/);
    expect(from0.verdict).toBe('regressed');
  });

  it('exact: equal passes, any change regresses and gates', () => {
    expect(judgeMetric(exact(50_176), exact(50_176), { ...opts, tolerance: 0 }).verdict).toBe('pass');
    const v = judgeMetric(exact(50_176), exact(200_704), { ...opts, tolerance: 0 });
    expect(v.verdict).toBe('regressed');
    expect(v.gates).toBe(true);
    expect(v.reason).toMatch(/\+150528 B/);
  });

  it('ratio: regressed only when the whole CI is below the band', () => {
    // baseline 1.5, tol 10% -> band [1.35, 1.65]
    expect(judgeMetric(ratio(1.5), ratio(1.2, [1.1, 1.3]), opts).verdict).toBe('regressed');
    expect(judgeMetric(ratio(1.5), ratio(1.3, [1.2, 1.4]), opts).verdict).toBe('inconclusive');
    expect(judgeMetric(ratio(1.5), ratio(1.45, [1.2, 1.7]), opts).verdict).toBe('pass');
    expect(judgeMetric(ratio(1.5), ratio(1.9, [1.7, 2.1]), opts).verdict).toBe('improved');
    // One process against one, no calibrated spread: nothing can judge it, --gate-timing or not.
    expect(judgeMetric(ratio(1.5), ratio(1.2, [1.1, 1.3]), opts).gates).toBe(false);
    expect(judgeMetric(ratio(1.5), ratio(1.2, [1.1, 1.3]), { ...opts, gateTiming: true }).gates).toBe(false);
  });

  it('one rule for ratios and times: permutation for K + K, prediction for one against K or with the calibrated spread, else not judged', () => {
    const many = (m: Metric, values: number[]): Metric => ({ ...m, value: values[0]!, processes: values });
    const spread = { sd: 0.09, df: 118, source: 'calibration' };
    const eight = [1.48, 1.52, 1.5, 1.49, 1.51, 1.53, 1.47, 1.5];
    expect(judgingBasis(many(ratio(1.5), eight), many(ratio(1.5), eight), null)).toBe('permutation');
    expect(judgingBasis(many(ratio(1.5), eight), ratio(1.5), null)).toBe('prediction');
    // K run processes against a one-process baseline: only with the calibrated spread.
    expect(judgingBasis(ratio(1.5), many(ratio(1.5), eight), null)).toBeNull();
    expect(judgingBasis(ratio(1.5), many(ratio(1.5), eight), spread)).toBe('prediction');
    expect(judgingBasis(ratio(1.5), ratio(1.4), spread)).toBe('prediction');
    expect(judgingBasis(ratio(1.5), ratio(1.4), null)).toBeNull();
    // The calibration is of a ratio's spread: times of one process each stay unjudged.
    expect(judgingBasis(time(1), time(2), spread)).toBeNull();
    expect(judgingBasis(many(time(1), [1, 1.1, 0.9]), time(2), null)).toBe('prediction');
    // No logarithm of a 0 ms time; no spread in identical values.
    expect(judgingBasis(many(time(1), [0, 1, 1]), time(2), null)).toBeNull();
    expect(judgingBasis(many(time(1), [1, 1, 1]), time(2), null)).toBeNull();
    // A gross drop of one process against an 8-process baseline gates and regresses.
    const v = judgeMetric(many(ratio(1.5), eight), ratio(0.55, [0.5, 0.6]), { ...opts, predictionAlpha: 0.01 / 22 });
    expect(v).toMatchObject({ verdict: 'regressed', gates: true, process: { method: 'prediction', processes: [8, 1] } });
    expect(v.reason).toMatch(/^prediction interval: -63\.3% \(1 vs 8 processes; one-sided 99\.95% prediction bound/);
  });

  it('times are judged, and gate, only under --gate-timing, by the same rule as ratios', () => {
    const many = (values: number[]): Metric => ({ ...time(values[0]!), processes: values });
    const base = many([1, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 1]);
    const slower = many([2, 2.04, 1.96, 2.02, 1.98, 2.06, 1.94, 2]);
    const off = judgeMetric(base, slower, { ...opts, tolerance: 0.5 });
    expect(off).toMatchObject({ verdict: 'regressed', gates: false });
    expect(off.process).toBeUndefined();
    expect(informational(off)).toBe(true);
    const on = judgeMetric(base, slower, { ...opts, tolerance: 0.5, gateTiming: true });
    expect(on).toMatchObject({ verdict: 'regressed', gates: true, process: { processes: [8, 8] } });
    expect(informational(on)).toBe(false);
  });

  it('beyondBand and flagged: regressed, or beyond the tolerance the bad way; a time not judged is never flagged', () => {
    expect(flagged(judgeMetric(ratio(1.5), ratio(1.3, [1.2, 1.4]), opts))).toBe(true); // inconclusive, -13%
    expect(beyondBand(judgeMetric(ratio(1.5), ratio(1.3, [1.2, 1.4]), opts))).toBe(true);
    expect(flagged(judgeMetric(ratio(1.5), ratio(1.9, [1.7, 2.1]), opts))).toBe(false); // better
    expect(flagged(judgeMetric(ratio(1.5), ratio(1.45, [1.2, 1.7]), opts))).toBe(false);
    expect(flagged(judgeMetric(exact(1), exact(2), opts))).toBe(true);
    expect(beyondBand(judgeMetric(time(1), time(2), opts))).toBe(true);
    expect(flagged(judgeMetric(time(1), time(2), opts))).toBe(false);
  });

  it('time: lower is better, informational by default', () => {
    expect(judgeMetric(time(1), time(1.3), { ...opts, tolerance: 0.2 }).verdict).toBe('regressed');
    expect(judgeMetric(time(1), time(0.7), { ...opts, tolerance: 0.2 }).verdict).toBe('improved');
    expect(judgeMetric(time(1), time(1.1), { ...opts, tolerance: 0.2 })).toMatchObject({ verdict: 'pass', gates: false });
  });

  it('quality: within its bound', () => {
    expect(judgeMetric(quality(0), quality(2e-7), opts).verdict).toBe('pass');
    expect(judgeMetric(quality(0), quality(3e-6), opts)).toMatchObject({ verdict: 'regressed', gates: true });
    // A run that loosened its own bound is still held to the baseline's.
    expect(judgeMetric(quality(0), { ...quality(3e-6), bound: { max: 1e-3 } }, opts).verdict).toBe('regressed');
  });

  it('new and missing', () => {
    expect(judgeMetric(null, exact(1), opts).verdict).toBe('new');
    expect(judgeMetric(exact(1), null, opts).verdict).toBe('missing');
  });

  it('a ratio of one process is told apart, and its reason states where the CI lies, no more', () => {
    const above = judgeMetric(ratio(1.5), ratio(1.9, [1.7, 2.1]), opts);
    const below = judgeMetric(ratio(1.5), ratio(1.2, [1.1, 1.3]), opts);
    for (const v of [above, below]) {
      expect(informational(v)).toBe(true);
      expect(v.reason).toMatch(/in this one process lies wholly (above|below) baseline 1\.500/);
      expect(v.reason).not.toMatch(/stale|accept|regress|improve/);
    }
    const perProcess = (values: number[]): Metric => ({ ...ratio(values[0]!), processes: values });
    expect(informational(judgeMetric(perProcess([1.5, 1.5, 1.6]), perProcess([1.5, 1.4, 1.5]), opts))).toBe(false);
    expect(informational(judgeMetric(exact(1), exact(1), opts))).toBe(false);
    expect(informational(judgeMetric(null, ratio(1.5), opts))).toBe(false);
  });
});
