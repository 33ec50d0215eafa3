import { describe, expect, it } from 'vitest';
import { testRatio } from '../../test/support/run-record.js';
import { readBaseline } from './baseline.js';
import { compareWithBaseline } from './compare.js';
import { judgingContext } from './host-allowance.js';
import { recordedRunsDir, spreadsOfRuns } from './recorded-spread.js';
import type { Metric } from './schema.js';

const ratio = (id: string, processes: number[]): Metric => testRatio(id, processes[0]!, [processes[0]!, processes[0]!], processes);
const run = (metrics: Metric[], scale: 'quick' | 'full' = 'quick') => ({ metrics, scale });
const sd = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, x) => a + (x - m) ** 2, 0);
};

describe('spreadsOfRuns: each ratio pooled over recorded runs', () => {
  it('pools each run about its own mean, with N - runs degrees of freedom', () => {
    const [a, b] = [
      [1, 1.1, 0.9],
      [2, 2.4, 1.8, 2.2],
    ];
    const s = spreadsOfRuns([run([ratio('x.speedup', a)]), run([ratio('x.speedup', b)])], 'quick', 'p').get('x.speedup');
    const logs = (xs: number[]) => xs.map(Math.log);
    // A shift between runs (x2) does not count: only each run's own spread.
    expect(s?.df).toBe(5);
    expect(s?.sd).toBeCloseTo(Math.sqrt((sd(logs(a)) + sd(logs(b))) / 5), 12);
    expect(s?.source).toBe('7 processes in 2 recorded runs of p');
  });

  it('counts the same values once, and leaves out other scales, one-value runs and other kinds', () => {
    const same = ratio('x.speedup', [1, 1.2]);
    const time: Metric = { ...ratio('x.ms', [3, 4]), kind: 'time' };
    const spreads = spreadsOfRuns([run([same, time]), run([same]), run([ratio('x.speedup', [5, 9])], 'full'), run([ratio('y.speedup', [2])])], 'quick', 'p');
    expect([...spreads.keys()]).toEqual(['x.speedup']);
    expect(spreads.get('x.speedup')?.df).toBe(1);
  });
});

describe("the committed AMD EPYC profile: an unchanged CI run's drop (stop 46)", () => {
  const path = 'baselines/webgpu-lavapipe-amd-epyc-2c-x64.json';
  const id = 'dtypes.32x3x224x224.speedup-vs-float32.float16';

  it('finds the history beside the baselines folder', () => {
    expect(recordedRunsDir(path, 'p')).toBe('history/p');
    expect(recordedRunsDir('/a/b/baselines/x.json', 'p')).toBe('/a/b/history/p');
  });

  it('floors the baseline\'s 8 close processes with the 26% an earlier sitting showed: -43.7% is no longer "regressed", a 3x drop still is', async () => {
    const baseline = await readBaseline(path);
    const context = await judgingContext(baseline, path, baseline);
    const own = context.metricSpreads.get(id);
    // The baseline (8 processes, 9.8%) and c5b4c04's 8 (0.21-0.48): 16 processes in 2 runs.
    expect(own?.source).toMatch(/^16 processes in 2 recorded runs of webgpu-lavapipe-amd-epyc-2c-x64/);
    expect(own?.sd).toBeGreaterThan(0.15);
    // One process of every ratio at the baseline's value, this one at what CI measured (0.2161x).
    const oneProcess = (value: (m: Metric) => number) => ({
      ...baseline,
      metrics: baseline.metrics.map((m) => (m.kind === 'ratio' ? { ...m, value: value(m), processes: undefined, ci: undefined } : m)),
    });
    const verdictOf = (value: number, withHistory: boolean) =>
      compareWithBaseline(
        oneProcess((m) => (m.id === id ? value : m.value)),
        baseline,
        { allowProfileMismatch: false, gateTiming: false, spread: context.spread, ...(withHistory ? { metricSpreads: context.metricSpreads } : {}) },
      ).verdicts.find((v) => v.id === id)?.verdict;
    expect(verdictOf(0.2161, false)).toBe('regressed');
    expect(verdictOf(0.2161, true)).toBe('inconclusive');
    expect(verdictOf(baseline.metrics.find((m) => m.id === id)!.value / 4, true)).toBe('regressed');
  });
});
