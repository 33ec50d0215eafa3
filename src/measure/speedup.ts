import { seededRng } from '../data/random.js';
import { pairRatios, type PairedSamples } from './paired.js';
import { bootstrapCI, median, type ConfidenceInterval } from './statistics.js';

/** How much faster B is than A, from interleaved pairs. */
export interface SpeedupEstimate {
  /** Median of per-pair ratios time(A)/time(B), with its bootstrap CI. */
  readonly ratio: ConfidenceInterval;
  readonly pairs: number;
  readonly medianMsA: number;
  readonly medianMsB: number;
}

/** Median per-pair ratio with a seeded 95% percentile-bootstrap CI. */
export function estimateSpeedup(samples: PairedSamples, seed = 1): SpeedupEstimate {
  return {
    ratio: bootstrapCI(pairRatios(samples), median, { rng: seededRng(seed) }),
    pairs: samples.a.length,
    medianMsA: median(samples.a),
    medianMsB: median(samples.b),
  };
}
