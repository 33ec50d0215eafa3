import { makeBaseline } from '../../src/results/baseline.js';
import { type Comparison, compareWithBaseline } from '../../src/results/compare.js';
import type { RunRecord } from '../../src/results/schema.js';
import { testRatio, testRunRecord } from './run-record.js';

/**
 * Issue 40's reading of the panes, as one run and its comparison: a smaller-is-better ratio (the
 * training step's time over the resident step's) made 3x worse (0.94x -> 2.82x), the speedup 12%
 * lower in one process (beyond the 10% tolerance, within what one process moves: inconclusive),
 * and a run of two scenarios' files against a baseline with a third scenario's metric.
 */
export function issue40Run(): { record: RunRecord; comparison: Comparison } {
  const eight = (x: number) => [0.99, 1.01, 0.98, 1.02, 1, 0.97, 1.03, 1].map((f) => f * x);
  const step = (value: number, processes?: number[]) => ({
    ...testRatio('training.step-time-vs-resident.cpu-normalize', value, [value * 0.95, value * 1.05], processes),
    scenario: 'training',
  });
  const speedup = (value: number, processes?: number[]) => ({
    ...testRatio('mnist-transfer.speedup', value, [value * 0.95, value * 1.05], processes),
    scenario: 'speedup',
  });
  const other = { id: 'coco.data.images', scenario: 'coco', kind: 'exact' as const, value: 4, unit: 'images' };
  const noisy = [0.88, 1.12, 0.9, 1.1, 0.95, 1.05, 1, 1].map((f) => f * 1.5);
  const baseline = makeBaseline(testRunRecord([step(0.94, eight(0.94)), speedup(1.5, noisy), other]), 'b.json', {});
  const record = testRunRecord([step(2.82), speedup(1.32)], { selection: ['perf/10-training.spec.ts', 'perf/06-speedup.perf.ts'] });
  return { record, comparison: compareWithBaseline(record, baseline, { allowProfileMismatch: false, gateTiming: false }) };
}
