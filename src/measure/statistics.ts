import type { Rng } from '../base/random.js';

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

/** log P(X = j) for j = 0..last, X ~ Binomial(n, p) with 0 < p < 1; log C(n, j) built up as a running sum of logs. */
function binomialLogPmf(last: number, n: number, p: number): number[] {
  const logP = Math.log(p);
  const logQ = Math.log1p(-p);
  let logChoose = 0; // log C(n, 0)
  const terms: number[] = [];
  for (let j = 0; j <= last; j++) {
    if (j > 0) logChoose += Math.log((n - j + 1) / j);
    terms.push(logChoose + j * logP + (n - j) * logQ);
  }
  return terms;
}

function checkBinomial(n: number, p: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a whole number >= 0, got ${n}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must lie in [0, 1], got ${p}`);
}

/**
 * P(X <= k) for X ~ Binomial(n, p), summed exactly term by term (each term from log space;
 * terms below 1e-308 underflow to 0, which no tail used here can notice).
 */
export function binomialCdf(k: number, n: number, p: number): number {
  checkBinomial(n, p);
  if (!Number.isInteger(k)) throw new RangeError(`k must be a whole number, got ${k}`);
  if (k < 0) return 0;
  if (k >= n || p === 0) return 1;
  if (p === 1) return 0;
  return Math.min(
    1,
    binomialLogPmf(k, n, p).reduce((sum, t) => sum + Math.exp(t), 0),
  );
}

/**
 * The fewest successes out of n that a one-sided exact binomial test at level `alpha` accepts
 * as consistent with a true rate of at least p: the smallest k with P(X <= k | n, p) >= alpha.
 */
export function binomialLowerThreshold(n: number, p: number, alpha = 0.05): number {
  checkBinomial(n, p);
  if (p === 0) return 0;
  if (p === 1) return n;
  let cdf = 0;
  for (const [k, t] of binomialLogPmf(n, n, p).entries()) {
    cdf += Math.exp(t);
    if (cdf >= alpha) return k;
  }
  return n;
}
