import { seededRng } from '../base/random.js';
import { permutationPValue, shiftWithInterval, smallestDecidingGroupSize, smallestPermutationP } from '../measure/permutation.js';
import { geometricMean, mean, studentTCdf, studentTQuantile } from '../measure/statistics.js';
import { adjustForCovariate } from './covariate.js';
import { type Direction, worseSign } from './direction.js';
import type { MetricKind } from './schema.js';

/**
 * Cross-process verdicts: one value per process and metric (Kalibera & Jones, "Rigorous
 * benchmarking in reasonable time", ISMM 2013: the process is the unit of replication),
 * compared on the log scale with an exact permutation test and the interval it inverts into.
 */

/** The per-process values of one metric in two arms. */
export interface ProcessSamples {
  readonly id: string;
  readonly kind: Extract<MetricKind, 'ratio' | 'time'>;
  /** Which way is better (directionOf the metric); absent: the kind's (a ratio bigger, a time smaller). */
  readonly direction?: JudgedDirection;
  readonly base: readonly number[];
  readonly head: readonly number[];
  /**
   * The host-state probe each process measured, index by index with `base` and `head`: the values
   * are then judged adjusted for it (results/covariate.ts) where both arms carry enough of it.
   */
  readonly covariate?: { readonly base: readonly number[]; readonly head: readonly number[] };
}

const PROCESS_VERDICTS = ['regressed', 'improved', 'pass', 'inconclusive'] as const;
export type ProcessVerdictName = (typeof PROCESS_VERDICTS)[number];

/** The directions a cross-process verdict judges: one way is worse. */
export type JudgedDirection = Extract<Direction, 'bigger' | 'smaller'>;

/** The direction samples are judged in: theirs, else their kind's. */
export const judgedDirection = (s: Pick<ProcessSamples, 'kind' | 'direction'>): JudgedDirection => s.direction ?? (s.kind === 'ratio' ? 'bigger' : 'smaller');

export interface ProcessVerdict {
  readonly id: string;
  readonly kind: ProcessSamples['kind'];
  /** Which way it was judged better (absent in results written before directions: the kind's). */
  readonly direction?: JudgedDirection;
  readonly verdict: ProcessVerdictName;
  /** Geometric means of the per-process values. */
  readonly base: number;
  readonly head: number;
  /** head / base - 1, and its interval at `confidence`. */
  readonly change: number;
  readonly ci: readonly [number, number];
  readonly confidence: number;
  /** Two-sided permutation p-value of "no change". */
  readonly p: number;
  readonly processes: readonly [number, number];
  readonly tolerance: number;
  readonly reason: string;
  /**
   * How it was judged: an exact permutation test of K + K processes (absent: the default), or a
   * prediction interval for one process (`judgeOneProcess`): then `ci` is the change's interval
   * at `confidence` two-sided, `p` the one-sided predictive p-value in the bad direction.
   */
  readonly method?: 'prediction';
  /** The covariate adjustment the values were judged with (absent: judged as measured). */
  readonly covariate?: { readonly slope: number; readonly explained: number };
}

export interface ProcessJudgeOptions {
  /** Relative tolerance (0.1: 10%). */
  readonly tolerance: number;
  /** Significance per look; two looks (8 + 8 processes) keep the overall false-alarm rate <= 2 alpha. */
  readonly alpha: number;
}

/** 0.005 per look, as the design asks: at most 1% false alarms over two looks (Bonferroni). */
export const DEFAULT_PROCESS_ALPHA = 0.005;

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;

/**
 * Judges one metric: regressed only when the change is significant (p < alpha) AND its estimate
 * is beyond the tolerance in the bad direction (its `direction`: a lower speedup, a longer time, a
 * higher step-time ratio); improved likewise
 * in the good direction; pass when the interval's bad-side bound rules out twice the tolerance;
 * otherwise inconclusive (measure more processes once, then decide).
 */
export function judgeProcesses(s: ProcessSamples, o: ProcessJudgeOptions, detail: { interval: boolean } = { interval: true }): ProcessVerdict {
  if (s.base.length < 2 || s.head.length < 2) throw new RangeError(`${s.id}: a cross-process verdict needs at least 2 processes per arm`);
  if ([...s.base, ...s.head].some((x) => !(x > 0))) throw new RangeError(`${s.id}: per-process values must be positive`);
  const logs = (xs: readonly number[]) => xs.map(Math.log);
  const adjusted = s.covariate ? adjustForCovariate({ values: s.base, covariate: s.covariate.base }, { values: s.head, covariate: s.covariate.head }) : null;
  const [a, b] = adjusted ? [logs(adjusted.base), logs(adjusted.head)] : [logs(s.base), logs(s.head)];
  const options = { rng: seededRng(97) };
  // Bad direction: a fall where bigger is better (a speedup), a rise where smaller is (a time).
  const direction = judgedDirection(s);
  const bad = worseSign(direction) ?? 1;
  // The interval at 1 - 2 alpha matches a one-sided bound at level alpha on each side. The pass
  // rule needs only whether the change of twice the tolerance for the worse lies outside it,
  // one test at that shift (test inversion), so the interval's edges are computed for display only.
  const shift = detail.interval
    ? shiftWithInterval(a, b, 2 * o.alpha, options)
    : {
        estimate: b.reduce((x, y) => x + y, 0) / b.length - a.reduce((x, y) => x + y, 0) / a.length,
        lo: Number.NaN,
        hi: Number.NaN,
        p: permutationPValue(a, b, options),
      };
  const change = Math.exp(shift.estimate) - 1;
  const ci = [Math.exp(shift.lo) - 1, Math.exp(shift.hi) - 1] as const;
  const badChange = bad * change;
  // A ratio cannot fall by 100% or more: at a tolerance of 50% or more (a wide allowance between
  // CPUs, host-allowance.ts) a fall of twice it is ruled out by any interval (no log to take).
  const twice = 1 + bad * 2 * o.tolerance;
  const dBad = twice > 0 ? Math.log(twice) : Number.NEGATIVE_INFINITY;
  const ruledOut =
    twice <= 0 ||
    (bad * shift.estimate < bad * dBad &&
      permutationPValue(
        a,
        b.map((x) => x - dBad),
        options,
      ) <=
        2 * o.alpha);
  const badBound = detail.interval ? (bad < 0 ? -ci[0] : ci[1]) : ruledOut ? 0 : Number.POSITIVE_INFINITY;
  const significant = shift.p < o.alpha;
  // Below smallestDecidingGroupSize per arm no split is rare enough: said, so K is not blamed on the data.
  const unreachable =
    smallestPermutationP(a.length, b.length) >= o.alpha
      ? ` (${a.length} + ${b.length} processes cannot reach p < ${o.alpha} whatever they measure: at least ${smallestDecidingGroupSize(o.alpha)} per arm)`
      : '';
  const adjustedBy = adjusted ? ` adjusted for the host state (slope ${adjusted.slope.toFixed(2)}, R² ${adjusted.explained.toFixed(2)})` : '';
  const head = `${pct(change)} [${pct(ci[0])}, ${pct(ci[1])}] (${Math.round(100 * (1 - 2 * o.alpha))}% interval${adjustedBy}), p = ${shift.p.toPrecision(2)}`;
  let verdict: ProcessVerdictName;
  let why: string;
  if (significant && badChange > o.tolerance) {
    verdict = 'regressed';
    why = `significant (p < ${o.alpha}) and beyond the ${pct(o.tolerance).slice(1)} tolerance`;
  } else if (significant && -badChange > o.tolerance) {
    verdict = 'improved';
    why = `significant and beyond the tolerance in the good direction: the baseline is stale`;
  } else if (ruledOut || badBound <= 2 * o.tolerance) {
    verdict = 'pass';
    why = `the interval rules out a change of twice the tolerance (${pct(2 * o.tolerance).slice(1)}) for the worse`;
  } else {
    verdict = 'inconclusive';
    why = `not significant${unreachable}, but the interval does not rule out ${pct(2 * o.tolerance).slice(1)} for the worse: measure more processes`;
  }
  return {
    id: s.id,
    kind: s.kind,
    direction,
    verdict,
    base: geometricMean(s.base),
    head: geometricMean(s.head),
    change,
    ci,
    confidence: 1 - 2 * o.alpha,
    p: shift.p,
    processes: [s.base.length, s.head.length],
    tolerance: o.tolerance,
    reason: `${head}: ${why}`,
    ...(adjusted ? { covariate: { slope: adjusted.slope, explained: adjusted.explained } } : {}),
  };
}

/**
 * The family-wise false-alarm rate the one-process rule is held to: at most 1% of unchanged runs
 * fail on any of their judged metrics (Bonferroni over the metrics judged by `judgeOneProcess`
 * in one comparison: `oneProcessAlpha`).
 */
export const FAMILY_FALSE_ALARM = 0.01;

/**
 * The one-sided level of each of `family` prediction-interval verdicts of one comparison so that
 * P(any false alarm) <= FAMILY_FALSE_ALARM whatever their dependence (Bonferroni: Boole's
 * inequality; metrics of one process are correlated, so Sidak's independence is not assumed).
 */
export function oneProcessAlpha(family: number): number {
  if (!Number.isInteger(family) || family < 1) throw new RangeError(`the family of judged metrics must be a whole number >= 1, got ${family}`);
  return FAMILY_FALSE_ALARM / family;
}

const criticalTs = new Map<string, number>();
/** t(1 - alpha; df), remembered: resampled calibrations judge thousands of metrics at one level. */
function criticalT(alpha: number, df: number): number {
  const key = `${alpha}/${df}`;
  let t = criticalTs.get(key);
  if (t === undefined) {
    t = studentTQuantile(1 - alpha, df);
    criticalTs.set(key, t);
  }
  return t;
}

/** A between-process spread of log values from elsewhere (the profile's calibration): its SD and degrees of freedom. */
export interface KnownSpread {
  readonly sd: number;
  readonly df: number;
  /** Where it comes from, for the reason ('baselines/x.calibration.json, 120 processes'). */
  readonly source: string;
}

/**
 * One new process against K per-process values, judged with the prediction interval for one
 * future observation of a normal sample, on logs (Hahn & Meeker, "Statistical Intervals: A Guide
 * for Practitioners", Wiley 1991, ch. 4; NIST/SEMATECH e-Handbook of Statistical Methods; its
 * Bonferroni use for several futures: Hahn, JASA 65:1668, 1970):
 *
 *   x_new lies in  mean(x) +/- t(1 - alpha; K - 1) * s * sqrt(1 + 1/K)   with probability 1 - 2 alpha,
 *
 * x the K baseline logs, s their SD. In general, with n_b and n_h values on the two sides and the
 * spread s from the side with several (or `spread`, the profile's calibration, when both have one):
 * T = (mean(head) - mean(base)) / (s * sqrt(1/n_b + 1/n_h)) ~ t(df) under no change. So the same
 * rule judges one process against a K-process baseline, K processes against a one-process
 * baseline, and one against one with the calibrated spread. Where both exist, s is the larger of
 * the K processes' SD and the calibrated one (a floor), with K - 1 degrees of freedom.
 *
 * 'regressed' when T lies beyond the one-sided (1 - alpha) quantile in the bad direction (a lower
 * ratio, a longer time) AND the change is beyond the tolerance; 'improved' likewise the other way;
 * 'pass' when the change is within the tolerance; else 'inconclusive' (beyond the tolerance but
 * within what one process moves by: one process cannot tell).
 */
export function judgeOneProcess(s: ProcessSamples, o: ProcessJudgeOptions, spread: KnownSpread | null = null): ProcessVerdict {
  const [nb, nh] = [s.base.length, s.head.length];
  if (nb < 1 || nh < 1) throw new RangeError(`${s.id}: a prediction needs values on both sides`);
  if (nb >= 2 && nh >= 2) throw new RangeError(`${s.id}: ${nb} + ${nh} processes are judged by judgeProcesses, not a prediction interval`);
  if ([...s.base, ...s.head].some((x) => !(x > 0))) throw new RangeError(`${s.id}: per-process values must be positive`);
  const [a, b] = [s.base.map(Math.log), s.head.map(Math.log)];
  const many = nb >= 2 ? a : nh >= 2 ? b : null;
  const own = many ? Math.sqrt(many.reduce((t, x) => t + (x - mean(many)) ** 2, 0) / (many.length - 1)) : undefined;
  // The calibrated spread is a floor: K processes that happened to agree closely do not make the
  // next one move less (on this machine's two-cluster pools 8 baseline processes alone gave ~1.2%
  // family-wise false alarms over 22 ratios, with the floor none in 2,000 runs: docs/baselines.md).
  const floored = own !== undefined && spread !== null && spread.sd > own;
  const sd = own === undefined ? spread?.sd : floored ? spread!.sd : own;
  const df = many ? many.length - 1 : spread?.df;
  if (sd === undefined || df === undefined) throw new RangeError(`${s.id}: one process on each side needs a known between-process spread`);
  if (!(sd > 0)) throw new RangeError(`${s.id}: the per-process values do not vary (SD 0): no prediction interval`);
  const d = mean(b) - mean(a);
  const scale = sd * Math.sqrt(1 / nb + 1 / nh);
  const direction = judgedDirection(s);
  const bad = worseSign(direction) ?? 1;
  const tCrit = criticalT(o.alpha, df);
  // One-sided predictive p-value of "no change" in the bad direction.
  const p = 1 - studentTCdf((bad * d) / scale, df);
  const pGood = studentTCdf((bad * d) / scale, df);
  const change = Math.exp(d) - 1;
  const ci = [Math.exp(d - tCrit * scale) - 1, Math.exp(d + tCrit * scale) - 1] as const;
  const badChange = bad * change;
  const from = !many
    ? `s = ${pct(sd).slice(1)} between processes from ${spread!.source}`
    : floored
      ? `s = ${pct(sd).slice(1)} from ${spread!.source}, the floor over ${pct(own!).slice(1)} between the ${many.length} ${nb >= 2 ? 'baseline' : 'run'} processes`
      : `s = ${pct(sd).slice(1)} between the ${many.length} ${nb >= 2 ? 'baseline' : 'run'} processes`;
  const shape = nb === 1 && nh === 1 ? 'sqrt(1 + 1)' : `sqrt(1 + 1/${Math.max(nb, nh)})`;
  // The bound a regression must cross: the no-change edge of the interval in the bad direction.
  const edge = Math.exp(bad * tCrit * scale) - 1;
  const head = `${pct(change)} (${nh} vs ${nb} process${nb === 1 ? '' : 'es'}; one-sided ${(100 * (1 - o.alpha)).toPrecision(4)}% prediction bound ${pct(edge)} = t(${df}) ${tCrit.toFixed(2)} x ${from} x ${shape}), p = ${p.toPrecision(2)}`;
  let verdict: ProcessVerdictName;
  let why: string;
  if (p < o.alpha && badChange > o.tolerance) {
    verdict = 'regressed';
    why = `beyond the prediction bound and the ${pct(o.tolerance).slice(1)} tolerance: more than processes move by`;
  } else if (pGood < o.alpha && -badChange > o.tolerance) {
    verdict = 'improved';
    why = 'beyond the prediction bound in the good direction: the baseline is stale';
  } else if (badChange <= o.tolerance) {
    verdict = 'pass';
    why = `within the ${pct(o.tolerance).slice(1)} tolerance`;
  } else {
    verdict = 'inconclusive';
    why = `beyond the ${pct(o.tolerance).slice(1)} tolerance but within what one process moves by: measure more processes (--processes ${smallestDecidingGroupSize(DEFAULT_PROCESS_ALPHA)} or more)`;
  }
  return {
    id: s.id,
    kind: s.kind,
    direction,
    verdict,
    base: Math.exp(mean(a)),
    head: Math.exp(mean(b)),
    change,
    ci,
    confidence: 1 - 2 * o.alpha,
    p,
    processes: [nb, nh],
    tolerance: o.tolerance,
    reason: `${head}: ${why}`,
    method: 'prediction',
  };
}

/**
 * The `--processes K` a per-process verdict can use (the parser's range: ParsedLine.count): K + K
 * processes must be able to reach p < alpha at the first look (`smallestDecidingGroupSize`, the
 * least); 1 is one process, judged by `judgeOneProcess` (gtp perf), unless `oneAllowed` is false
 * (an A/B, where both arms are judged per process only).
 */
export function processCountRange(alpha: number = DEFAULT_PROCESS_ALPHA, oneAllowed = true): { least: number; why: string; one?: string } {
  const least = smallestDecidingGroupSize(alpha);
  return {
    least,
    why: `fewer than ${least} + ${least} per-process values cannot reach p < ${alpha} in an exact permutation test; 8 recommended`,
    ...(oneAllowed ? { one: 'one process, judged with a prediction interval' } : {}),
  };
}

/**
 * Why `--processes k` cannot be used, or null: processCountRange's check, for a caller that was
 * handed a count without the parser (the API), in words that say what the smallest p would be.
 */
export function processCountProblem(k: number, alpha: number = DEFAULT_PROCESS_ALPHA, oneAllowed = true): string | null {
  const least = smallestDecidingGroupSize(alpha);
  if ((oneAllowed && k === 1) || k >= least) return null;
  const arrangements = Math.round(2 / smallestPermutationP(k, k));
  return `--processes ${k}: an exact permutation test of ${k} + ${k} per-process values cannot reach p < ${alpha} (its smallest p is 2/${arrangements} = ${smallestPermutationP(k, k).toPrecision(2)}), so every ratio would be inconclusive and measured again; use --processes ${least} or more (8 recommended)${oneAllowed ? ', or 1 (one process judged with a prediction interval)' : ''}`;
}
