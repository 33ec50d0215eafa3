import { estimateSpeedup } from '../measure/speedup.js';
import type { Metric } from './schema.js';

/**
 * Re-judges a ratio on the paired samples of two measurements pooled together: the
 * re-measurement a suspected regression gets before it is reported. The detail says so.
 */
export function poolRatioMetric(first: Metric, second: Metric): Metric {
  if (!first.samples || !second.samples) throw new Error(`metric ${first.id} carries no paired samples to pool`);
  const a = [...first.samples.a, ...second.samples.a];
  const b = [...first.samples.b, ...second.samples.b];
  const speedup = estimateSpeedup({ a, b });
  return {
    ...first,
    value: speedup.ratio.estimate,
    ci: [speedup.ratio.lo, speedup.ratio.hi],
    n: speedup.pairs,
    samples: { a, b },
    detail: `${first.detail ?? ''} [re-measured once after a suspected regression; judged on ${speedup.pairs} pooled pairs: first ${first.value.toFixed(3)}, second ${second.value.toFixed(3)}]`,
  };
}
