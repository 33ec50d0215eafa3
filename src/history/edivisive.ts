import type { Rng } from '../base/random.js';

/**
 * E-Divisive means change-point detection of a univariate series (Matteson & James 2014, "A
 * Nonparametric Approach for Multiple Change Point Analysis of Multivariate Data", JASA 109:505,
 * 334-345) with the permutation significance test as MongoDB (Daly et al., "Change Point
 * Detection in Software Performance Testing", ICPE 2020) and Apache Otava (formerly Hunter) run it.
 *
 * For a segment Z_a..Z_{b-1} split at tau into X = Z_a..Z_{tau-1} (m points) and Y = Z_tau..Z_{b-1}
 * (k points), with d(i, j) = |Z_i - Z_j|^alpha, 0 < alpha < 2 (Matteson & James, eq. 3 and 5):
 *   E-hat(X, Y; alpha) = 2/(mk) sum_{i,j} d(X_i, Y_j) - C(m,2)^-1 sum_{i<l} d(X_i, X_l) - C(k,2)^-1 sum_{j<l} d(Y_j, Y_l)
 *   Q-hat(X, Y; alpha) = mk/(m+k) * E-hat(X, Y; alpha)
 * The candidate is the tau with the largest Q-hat over every current segment, Y running from tau
 * to any kappa up to the segment's end (Matteson & James section 2.2; ecp's e.divisive; both sides
 * at least `minSegment` points); the split is at tau. Its significance: R
 * permutations, each shuffling the points within every current segment and taking the largest
 * Q-hat again; p = (1 + #{permuted >= observed}) / (R + 1) (ecp's sig.test; never 0). Accepted
 * when p <= the level; then the search repeats on the new segments, and stops at the first
 * candidate that is not significant.
 */

/** The parameters of a detection, stated with every result. */
export interface EDivisiveParams {
  /** Fewest points on each side of a change point. */
  readonly minSegment: number;
  /** Exponent of the distance |x - y|^alpha, in (0, 2); 1 is Matteson & James's default. */
  readonly alpha: number;
  /** A candidate is a change point when its permutation p <= this. */
  readonly significance: number;
  /** Permutations per candidate (R). */
  readonly permutations: number;
}

/** The defaults of perf:history: min segment 4, alpha 1, level 0.01, 499 permutations (smallest p 0.002). */
export const DEFAULT_EDIVISIVE: EDivisiveParams = { minSegment: 4, alpha: 1, significance: 0.01, permutations: 499 };

/** One accepted change point: the series changes between index-1 and index. */
export interface ChangePointIndex {
  readonly index: number;
  readonly qhat: number;
  readonly p: number;
}

/** The best split of one segment: its index in the series and its Q-hat; null when the segment is too short. */
export interface Split {
  readonly index: number;
  readonly qhat: number;
}

/** Checks the parameters; a RangeError names the first one out of range. */
export function checkParams(p: EDivisiveParams): void {
  if (!Number.isInteger(p.minSegment) || p.minSegment < 2) throw new RangeError(`minSegment must be a whole number >= 2, got ${p.minSegment}`);
  if (!(p.alpha > 0 && p.alpha < 2)) throw new RangeError(`alpha must be in (0, 2), got ${p.alpha}`);
  if (!(p.significance > 0 && p.significance < 1)) throw new RangeError(`significance must be in (0, 1), got ${p.significance}`);
  if (!Number.isInteger(p.permutations) || p.permutations < 1) throw new RangeError(`permutations must be a whole number >= 1, got ${p.permutations}`);
}

/**
 * For every tau in [0, n], the largest Q-hat (Matteson & James eq. 5) of X = values[0, tau)
 * against Y = values[tau, kappa) over kappa in [tau + minSegment, n]; entries where a side would
 * have fewer than minSegment points are -Infinity. O(n^2), updated as ecp's splitPointC does:
 * moving point tau from Y to X adds its distances to X to within-X, and for every kappa moves its
 * distances to Y[tau+1, kappa) from within-Y to the cross sum, and its distances to X out of it.
 */
export function qhatValues(values: ArrayLike<number>, alpha: number, minSegment: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n + 1).fill(Number.NEGATIVE_INFINITY);
  if (n < 2 * minSegment) return out;
  const d = alpha === 1 ? (i: number, j: number) => Math.abs(values[i]! - values[j]!) : (i: number, j: number) => Math.abs(values[i]! - values[j]!) ** alpha;
  // withinY[kappa] = sum over tau <= i < j < kappa; cross[kappa] = sum over i < tau <= j < kappa; withinX = sum over i < j < tau.
  const withinY = new Float64Array(n + 1);
  const cross = new Float64Array(n + 1);
  let withinX = 0;
  let tau = minSegment;
  for (let i = 0; i < tau; i++) for (let j = i + 1; j < tau; j++) withinX += d(i, j);
  for (let kappa = tau; kappa < n; kappa++) {
    let toY = 0;
    for (let j = tau; j < kappa; j++) toY += d(j, kappa);
    let toX = 0;
    for (let i = 0; i < tau; i++) toX += d(i, kappa);
    withinY[kappa + 1] = withinY[kappa]! + toY;
    cross[kappa + 1] = cross[kappa]! + toX;
  }
  for (;;) {
    const m = tau;
    let best = Number.NEGATIVE_INFINITY;
    for (let kappa = tau + minSegment; kappa <= n; kappa++) {
      const k = kappa - tau;
      const e = (2 * cross[kappa]!) / (m * k) - (2 * withinX) / (m * (m - 1)) - (2 * Math.max(0, withinY[kappa]!)) / (k * (k - 1));
      best = Math.max(best, ((m * k) / (m + k)) * e);
    }
    out[tau] = best;
    if (tau + 1 > n - minSegment) return out;
    // Point tau moves from Y to X.
    let toX = 0;
    for (let i = 0; i < tau; i++) toX += d(i, tau);
    withinX += toX;
    let toY = 0;
    for (let kappa = tau + 1; kappa <= n; kappa++) {
      if (kappa > tau + 1) toY += d(tau, kappa - 1);
      withinY[kappa] = withinY[kappa]! - toY;
      cross[kappa] = cross[kappa]! + toY - toX;
    }
    tau++;
  }
}

/** The tau with the largest Q-hat of `values` (ties: the first), or null when no split leaves minSegment on both sides. */
export function bestSplit(values: ArrayLike<number>, alpha: number, minSegment: number): Split | null {
  const q = qhatValues(values, alpha, minSegment);
  let best: Split | null = null;
  for (let tau = 0; tau < q.length; tau++)
    if (q[tau]! > Number.NEGATIVE_INFINITY && (best === null || q[tau]! > best.qhat)) best = { index: tau, qhat: q[tau]! };
  return best;
}

/** Segment bounds [start, end) of a series of length n cut at the sorted `cuts`. */
export function segmentsOf(n: number, cuts: readonly number[]): Array<readonly [number, number]> {
  const edges = [0, ...[...cuts].sort((a, b) => a - b), n];
  return edges.slice(1).map((end, i) => [edges[i]!, end] as const);
}

/** The best split over all segments of `values` cut at `cuts`, its index in the whole series; null when none fits. */
export function bestSplitOver(values: readonly number[], cuts: readonly number[], alpha: number, minSegment: number): Split | null {
  let best: Split | null = null;
  for (const [start, end] of segmentsOf(values.length, cuts)) {
    const s = bestSplit(values.slice(start, end), alpha, minSegment);
    if (s && (best === null || s.qhat > best.qhat)) best = { index: start + s.index, qhat: s.qhat };
  }
  return best;
}

/** Shuffles `values` in place within each segment (Fisher-Yates), as the permutation test does. */
export function shuffleWithin(values: number[], cuts: readonly number[], rng: Rng): void {
  for (const [start, end] of segmentsOf(values.length, cuts)) {
    for (let i = end - 1; i > start; i--) {
      const j = start + rng.int(i - start + 1);
      const t = values[i]!;
      values[i] = values[j]!;
      values[j] = t;
    }
  }
}

/**
 * Permutation p of a candidate with `observed` Q-hat: (1 + #{permuted max Q-hat >= observed}) / (R + 1).
 * Stops early once p must exceed the level (the verdict cannot change); the p returned is then a
 * lower bound above the level.
 */
export function permutationP(values: readonly number[], cuts: readonly number[], observed: number, params: EDivisiveParams, rng: Rng): number {
  const work = [...values];
  const limit = params.significance * (params.permutations + 1);
  let atLeast = 1;
  for (let r = 0; r < params.permutations; r++) {
    shuffleWithin(work, cuts, rng);
    const s = bestSplitOver(work, cuts, params.alpha, params.minSegment);
    // A tolerance of a few ulps: a permutation equal to the observed order must count as >=.
    if (s && s.qhat >= observed - 1e-12 * Math.max(1, Math.abs(observed))) atLeast++;
    if (atLeast > limit) return atLeast / (r + 2);
  }
  return atLeast / (params.permutations + 1);
}

/** E-Divisive means over `values`: the significant change points in the order found, each with its Q-hat and p. */
export function eDivisive(values: readonly number[], params: EDivisiveParams, rng: Rng): ChangePointIndex[] {
  checkParams(params);
  if (values.some((v) => !Number.isFinite(v))) throw new RangeError('eDivisive: every value must be a finite number');
  const found: ChangePointIndex[] = [];
  for (;;) {
    const cuts = found.map((c) => c.index);
    const candidate = bestSplitOver(values, cuts, params.alpha, params.minSegment);
    if (!candidate) return found;
    const p = permutationP(values, cuts, candidate.qhat, params, rng);
    if (p > params.significance) return found;
    found.push({ index: candidate.index, qhat: candidate.qhat, p });
  }
}
