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

/** Geometric mean of positive samples: exp of the mean log (the centre of ratios, which multiply). */
export function geometricMean(samples: readonly number[]): number {
  return Math.exp(mean(samples.map(Math.log)));
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

/**
 * ln Gamma(x) for x > 0 by the Lanczos approximation with g = 7 and 9 coefficients (Lanczos
 * 1964; the coefficients of Numerical Recipes 3rd ed. / Boost's lanczos13m53 lineage as printed in
 * Wikipedia's "Lanczos approximation"), with the reflection formula below 0.5: ~1e-15 relative.
 */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma needs x > 0, got ${x}`);
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/**
 * The regularized incomplete beta function I_x(a, b), by its continued fraction evaluated with
 * the modified Lentz method (Numerical Recipes 3rd ed., section 6.4, `betacf`; Abramowitz &
 * Stegun 26.5.8), using the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges slowly.
 */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`incompleteBeta needs a, b > 0, got ${a}, ${b}`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`incompleteBeta needs x in [0, 1], got ${x}`);
  if (x === 0 || x === 1) return x;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let f = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    f *= d * c;
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return (front * f) / a;
}

/**
 * P(T <= t) for Student's t with `df` degrees of freedom (df may be fractional), from the
 * incomplete beta: P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2) (Abramowitz & Stegun 26.7.1 / 26.5.27).
 */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`studentTCdf needs df > 0, got ${df}`);
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/**
 * The p-quantile of Student's t with `df` degrees of freedom: the t with P(T <= t) = p, found by
 * bisection on `studentTCdf` (monotone) to ~1e-12; upper tails are computed as lower ones by
 * symmetry, so p as close to 1 as 1 - 1e-12 keeps its precision.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentTQuantile needs p in (0, 1), got ${p}`);
  if (!(df > 0)) throw new RangeError(`studentTQuantile needs df > 0, got ${df}`);
  if (p > 0.5) return -studentTQuantile(1 - p, df);
  if (p === 0.5) return 0;
  // P(T <= lo) <= p < P(T <= 0): widen lo until it brackets the quantile.
  let lo = -1;
  while (studentTCdf(lo, df) > p) lo *= 2;
  let hi = lo / 2;
  if (lo === -1) hi = 0;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, Math.abs(lo)); i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) > p) hi = mid;
    else lo = mid;
  }
  return (lo + hi) / 2;
}
