import type { Rng } from '../data/random.js';

/** Samples sorted ascending; the type keeps unsorted arrays out of order statistics. */
export type SortedSamples = readonly number[] & { readonly __sorted: true };

/** Sorts a copy of the samples ascending. */
export function sortSamples(samples: readonly number[]): SortedSamples {
  return [...samples].sort((a, b) => a - b) as unknown as SortedSamples;
}

/** Quantile q in [0,1] of sorted samples by linear interpolation (Hyndman & Fan type 7, R's default). */
export function quantileSorted(sorted: SortedSamples, q: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of no samples');
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile ${q} outside [0, 1]`);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Median of unsorted samples. */
export function median(samples: readonly number[]): number {
  return quantileSorted(sortSamples(samples), 0.5);
}

/** Arithmetic mean, summed with Neumaier's compensation (Neumaier 1974, improved Kahan-Babuska). */
export function mean(samples: readonly number[]): number {
  if (samples.length === 0) throw new RangeError('mean of no samples');
  let sum = 0;
  let c = 0;
  for (const x of samples) {
    const t = sum + x;
    c += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
    sum = t;
  }
  return (sum + c) / samples.length;
}

/** A two-sided confidence interval of a statistic. */
export interface ConfidenceInterval {
  readonly estimate: number;
  readonly lo: number;
  readonly hi: number;
  readonly confidence: number;
}

export interface BootstrapOptions {
  readonly rng: Rng;
  /** Resamples drawn; 10,000 keeps the Monte Carlo error of a 95% bound small (Efron & Tibshirani 1993, ch. 19). */
  readonly resamples?: number;
  readonly confidence?: number;
}

/** Percentile bootstrap CI of `statistic` (Efron & Tibshirani, An Introduction to the Bootstrap, ch. 13). */
export function bootstrapCI(
  samples: readonly number[],
  statistic: (resample: readonly number[]) => number,
  { rng, resamples = 10_000, confidence = 0.95 }: BootstrapOptions,
): ConfidenceInterval {
  const n = samples.length;
  if (n < 2) throw new RangeError(`bootstrap needs at least 2 samples, got ${n}`);
  const stats = new Array<number>(resamples);
  const resample = new Array<number>(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) resample[i] = samples[rng.int(n)]!;
    stats[r] = statistic(resample);
  }
  const sorted = sortSamples(stats);
  const alpha = (1 - confidence) / 2;
  return {
    estimate: statistic(samples),
    lo: quantileSorted(sorted, alpha),
    hi: quantileSorted(sorted, 1 - alpha),
    confidence,
  };
}

/** Largest |a[i] - b[i]| over two equally long arrays. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`length ${a.length} vs ${b.length}`);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}
