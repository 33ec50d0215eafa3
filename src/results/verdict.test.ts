import { describe, expect, it } from 'vitest';
import type { Metric } from './schema.js';
import { fromOneProcess, judgeMetric } from './verdict.js';

const exact = (value: number): Metric => ({ id: 'x.bytes', scenario: 's', kind: 'exact', value, unit: 'B' });
const ratio = (value: number, ci?: [number, number]): Metric => ({ id: 'x.speedup', scenario: 's', kind: 'ratio', value, unit: 'x', ci, n: 30 });
const time = (value: number): Metric => ({ id: 'x.time', scenario: 's', kind: 'time', value, unit: 'ms' });
const quality = (value: number): Metric => ({ id: 'x.diff', scenario: 's', kind: 'quality', value, unit: '', bound: { max: 1e-6 } });
const opts = { tolerance: 0.1, gateTiming: false };

describe('judgeMetric', () => {
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
    expect(judgeMetric(ratio(1.5), ratio(1.2, [1.1, 1.3]), opts).gates).toBe(false);
    expect(judgeMetric(ratio(1.5), ratio(1.2, [1.1, 1.3]), { ...opts, gateTiming: true }).gates).toBe(true);
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
      expect(fromOneProcess(v)).toBe(true);
      expect(v.reason).toMatch(/in this one process lies wholly (above|below) baseline 1\.500/);
      expect(v.reason).not.toMatch(/stale|accept|regress|improve/);
    }
    const perProcess = (values: number[]): Metric => ({ ...ratio(values[0]!), processes: values });
    expect(fromOneProcess(judgeMetric(perProcess([1.5, 1.5, 1.6]), perProcess([1.5, 1.4, 1.5]), opts))).toBe(false);
    expect(fromOneProcess(judgeMetric(exact(1), exact(1), opts))).toBe(false);
    expect(fromOneProcess(judgeMetric(null, ratio(1.5), opts))).toBe(false);
  });
});
