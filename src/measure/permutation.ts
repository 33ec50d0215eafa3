import type { Rng } from '../base/random.js';
import { mean } from './statistics.js';

/**
 * Two-sample permutation test on the difference of means (Fisher 1935; Good, "Permutation,
 * Parametric and Bootstrap Tests of Hypotheses", 2005, ch. 3), and the confidence interval for
 * a shift obtained by inverting it (Lehmann, "Nonparametrics", 1975, ch. 2): distribution-free,
 * exact for few processes per arm, which is what cross-process verdicts have (one value per
 * process, 8 per arm).
 */

/** Number of ways to choose k of n (exact while below 2^53). */
export function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** Calls `visit` with every k-subset of 0..n-1 as a boolean mask (Gosper-free recursion). */
function forEachSubset(n: number, k: number, visit: (inSubset: Uint8Array) => void): void {
  const mask = new Uint8Array(n);
  const rec = (start: number, left: number): void => {
    if (left === 0) {
      visit(mask);
      return;
    }
    for (let i = start; i <= n - left; i++) {
      mask[i] = 1;
      rec(i + 1, left - 1);
      mask[i] = 0;
    }
  };
  rec(0, k);
}

export interface PermutationOptions {
  /** Enumerate every split up to this many; sample beyond it. 12,870 splits for 8 + 8. */
  readonly exactLimit?: number;
  /** Random splits drawn when enumerating would take too long (a Monte Carlo p-value). */
  readonly resamples?: number;
  readonly rng: Rng;
}

/**
 * Two-sided p-value for H0 "b and a come from the same distribution", statistic mean(b) -
 * mean(a): the share of splits of the pooled values into groups of |a| and |b| whose statistic
 * is at least as extreme as the observed one (the observed split included, so p > 0).
 */
export function permutationPValue(a: readonly number[], b: readonly number[], options: PermutationOptions): number {
  const pooled = [...a, ...b];
  const n = pooled.length;
  const k = b.length;
  if (a.length < 1 || k < 1) throw new RangeError('permutation test needs values in both groups');
  const total = pooled.reduce((s, x) => s + x, 0);
  const observed = Math.abs(mean(b) - mean(a));
  const statOf = (sumB: number) => Math.abs(sumB / k - (total - sumB) / (n - k));
  // Ties in the statistic up to rounding count as "as extreme".
  const atLeast = (s: number) => s >= observed - 1e-12 * Math.max(1, observed);
  const exactLimit = options.exactLimit ?? 50_000;
  if (binomial(n, k) <= exactLimit) {
    let hits = 0;
    let count = 0;
    forEachSubset(n, k, (mask) => {
      let sumB = 0;
      for (let i = 0; i < n; i++) if (mask[i]) sumB += pooled[i]!;
      if (atLeast(statOf(sumB))) hits++;
      count++;
    });
    return hits / count;
  }
  const resamples = options.resamples ?? 20_000;
  const index = Array.from({ length: n }, (_, i) => i);
  let hits = 1; // the observed split (Phipson & Smyth 2010: p is never 0)
  for (let r = 0; r < resamples; r++) {
    // Partial Fisher-Yates: the first k positions are a uniform random k-subset.
    for (let i = 0; i < k; i++) {
      const j = i + options.rng.int(n - i);
      [index[i], index[j]] = [index[j]!, index[i]!];
    }
    let sumB = 0;
    for (let i = 0; i < k; i++) sumB += pooled[index[i]!]!;
    if (atLeast(statOf(sumB))) hits++;
  }
  return hits / (resamples + 1);
}

/** A shift of b against a with its confidence interval, from the permutation test. */
export interface ShiftEstimate {
  /** mean(b) - mean(a). */
  readonly estimate: number;
  readonly lo: number;
  readonly hi: number;
  readonly confidence: number;
  /** Two-sided p-value of "no shift". */
  readonly p: number;
}

/**
 * The shift d = mean(b) - mean(a) with the (1 - alpha) interval of every d0 the test does not
 * reject when b - d0 is compared with a (test inversion), found by bisection on each side.
 */
export function shiftWithInterval(a: readonly number[], b: readonly number[], alpha: number, options: PermutationOptions): ShiftEstimate {
  const estimate = mean(b) - mean(a);
  const p = permutationPValue(a, b, options);
  // With few values no split is rare enough to reject at alpha: the interval is unbounded.
  const smallestP = Math.min(1, 2 / binomial(a.length + b.length, b.length));
  if (smallestP > alpha) return { estimate, lo: -Infinity, hi: Infinity, confidence: 1 - alpha, p };
  const accepts = (d0: number) =>
    permutationPValue(
      a,
      b.map((x) => x - d0),
      options,
    ) > alpha;
  const spread = Math.max(...a, ...b) - Math.min(...a, ...b) || 1;
  const edge = (direction: 1 | -1): number => {
    let inside = estimate;
    let outside = estimate + direction * spread;
    for (let step = spread; accepts(outside); step *= 2) {
      if (step > 1e6 * spread) return direction * Infinity; // cannot happen once smallestP <= alpha; a guard against ties
      outside += direction * step;
    }
    for (let i = 0; i < 40; i++) {
      const mid = (inside + outside) / 2;
      if (accepts(mid)) inside = mid;
      else outside = mid;
    }
    return inside;
  };
  return { estimate, lo: edge(-1), hi: edge(1), confidence: 1 - alpha, p };
}

/**
 * The smallest p-value `permutationPValue` can return for groups of m and n values (all values
 * distinct): the observed split is the most extreme one, so p = (splits as extreme) / C(m + n, n).
 * With m = n its mirror image (the groups swapped) is as extreme, so 2 / C(2n, n) (4 + 4: 2 / 70
 * = 0.029); with m != n the extreme split can be alone, 1 / C(m + n, n).
 */
export function smallestPermutationP(m: number, n: number): number {
  if (!Number.isInteger(m) || !Number.isInteger(n) || m < 1 || n < 1) throw new RangeError(`group sizes must be whole numbers >= 1, got ${m} and ${n}`);
  return Math.min(1, (m === n ? 2 : 1) / binomial(m + n, n));
}

/**
 * The fewest values per group (K + K) for which the two-sided permutation test can reach
 * p < alpha at all: below it every comparison is 'not significant' whatever the data, so a
 * verdict of K + K processes cannot call a regression at its first look. 6 for alpha = 0.005
 * (2 / C(12, 6) = 0.0022; 5 + 5 gives at best 2 / 252 = 0.0079).
 */
export function smallestDecidingGroupSize(alpha: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must lie in (0, 1), got ${alpha}`);
  let k = 1;
  while (smallestPermutationP(k, k) >= alpha) k++;
  return k;
}
