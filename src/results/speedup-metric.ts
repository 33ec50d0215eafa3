import type { PairedSamples } from '../measure/paired.js';
import type { SpeedupEstimate } from '../measure/speedup.js';
import type { Metric } from './schema.js';

/** A `ratio` metric from a speedup estimate, keeping the paired samples for re-analysis. */
export function speedupMetric(id: string, scenario: string, speedup: SpeedupEstimate, samples: PairedSamples, detail: string): Metric {
  return {
    id,
    scenario,
    kind: 'ratio',
    value: speedup.ratio.estimate,
    unit: 'x',
    ci: [speedup.ratio.lo, speedup.ratio.hi],
    n: speedup.pairs,
    source: 'measured',
    detail,
    samples: { a: [...samples.a], b: [...samples.b] },
  };
}
