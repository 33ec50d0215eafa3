import { seededRng } from '../base/random.js';
import { permutationPValue, shiftWithInterval } from '../measure/permutation.js';
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
  readonly base: readonly number[];
  readonly head: readonly number[];
}

const PROCESS_VERDICTS = ['regressed', 'improved', 'pass', 'inconclusive'] as const;
export type ProcessVerdictName = (typeof PROCESS_VERDICTS)[number];

export interface ProcessVerdict {
  readonly id: string;
  readonly kind: ProcessSamples['kind'];
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
}

export interface ProcessJudgeOptions {
  /** Relative tolerance (0.1: 10%). */
  readonly tolerance: number;
  /** Significance per look; two looks (8 + 8 processes) keep the overall false-alarm rate <= 2 alpha. */
  readonly alpha: number;
}

/** 0.005 per look, as the design asks: at most 1% false alarms over two looks (Bonferroni). */
export const DEFAULT_PROCESS_ALPHA = 0.005;

const geomean = (xs: readonly number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;

/**
 * Judges one metric: regressed only when the change is significant (p < alpha) AND its estimate
 * is beyond the tolerance in the bad direction (a lower ratio, a longer time); improved likewise
 * in the good direction; pass when the interval's bad-side bound rules out twice the tolerance;
 * otherwise inconclusive (measure more processes once, then decide).
 */
export function judgeProcesses(s: ProcessSamples, o: ProcessJudgeOptions, detail: { interval: boolean } = { interval: true }): ProcessVerdict {
  if (s.base.length < 2 || s.head.length < 2) throw new RangeError(`${s.id}: a cross-process verdict needs at least 2 processes per arm`);
  if ([...s.base, ...s.head].some((x) => !(x > 0))) throw new RangeError(`${s.id}: per-process values must be positive`);
  const logs = (xs: readonly number[]) => xs.map(Math.log);
  const [a, b] = [logs(s.base), logs(s.head)];
  const options = { rng: seededRng(97) };
  // Bad direction: a lower ratio (speedup), a longer time.
  const bad = s.kind === 'ratio' ? -1 : 1;
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
  const dBad = Math.log(1 + bad * 2 * o.tolerance);
  const ruledOut =
    bad * shift.estimate < bad * dBad &&
    permutationPValue(
      a,
      b.map((x) => x - dBad),
      options,
    ) <=
      2 * o.alpha;
  const badBound = detail.interval ? (s.kind === 'ratio' ? -ci[0] : ci[1]) : ruledOut ? 0 : Number.POSITIVE_INFINITY;
  const significant = shift.p < o.alpha;
  const head = `${pct(change)} [${pct(ci[0])}, ${pct(ci[1])}] (${Math.round(100 * (1 - 2 * o.alpha))}% interval), p = ${shift.p.toPrecision(2)}`;
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
    why = `not significant, but the interval does not rule out ${pct(2 * o.tolerance).slice(1)} for the worse: measure more processes`;
  }
  return {
    id: s.id,
    kind: s.kind,
    verdict,
    base: geomean(s.base),
    head: geomean(s.head),
    change,
    ci,
    confidence: 1 - 2 * o.alpha,
    p: shift.p,
    processes: [s.base.length, s.head.length],
    tolerance: o.tolerance,
    reason: `${head}: ${why}`,
  };
}
