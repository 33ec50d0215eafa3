import { estimateSpeedup } from '../measure/speedup.js';
import type { Metric } from './schema.js';
import { speedupMetric } from './speedup-metric.js';

/**
 * Re-judges a ratio on the paired samples of two measurements pooled together: the
 * re-measurement a suspected regression gets before it is reported. The detail says so.
 */
export function poolRatioMetric(first: Metric, second: Metric): Metric {
  if (!first.samples || !second.samples) throw new Error(`metric ${first.id} carries no paired samples to pool`);
  const a = [...first.samples.a, ...second.samples.a];
  const b = [...first.samples.b, ...second.samples.b];
  const speedup = estimateSpeedup({ a, b });
  const detail = `${first.detail ?? ''} [re-measured once after a suspected regression; judged on ${speedup.pairs} pooled pairs: first ${first.value.toFixed(3)}, second ${second.value.toFixed(3)}]`;
  return { ...first, ...speedupMetric(first.id, first.scenario, speedup, { a, b }, detail) };
}
