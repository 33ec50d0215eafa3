import { isCovariateMetric } from './covariate.js';
import { directionOf, relativeChange, worseSign } from './direction.js';
import {
  DEFAULT_PROCESS_ALPHA,
  FAMILY_FALSE_ALARM,
  judgeOneProcess,
  judgeProcesses,
  type KnownSpread,
  type ProcessSamples,
  type ProcessVerdict,
} from './process-verdict.js';
import type { Metric, MetricKind } from './schema.js';

const VERDICTS = ['pass', 'regressed', 'improved', 'inconclusive', 'new', 'missing'] as const;
export type VerdictName = (typeof VERDICTS)[number];

/** The judgement of one metric against its baseline. */
export interface Verdict {
  readonly id: string;
  readonly kind: MetricKind;
  readonly verdict: VerdictName;
  readonly baseline: Metric | null;
  readonly current: Metric | null;
  /** Relative tolerance (ratio, time) or absolute bound (quality) it was judged with. */
  readonly tolerance: number;
  /** Whether this verdict can fail the run: exact and quality always; ratios judged across processes; times so judged under --gate-timing. */
  readonly gates: boolean;
  /** One sentence: why this verdict. */
  readonly reason: string;
  /** The cross-process test behind it (a permutation test of K + K processes, or a prediction interval for one): absent when not judged. */
  readonly process?: ProcessVerdict;
}

/**
 * A ratio or time shown as information, not judged: a ratio with no cross-process basis (one
 * process on each side and no calibrated spread: `judgingBasis` null), or an absolute time when
 * timing is not gated (--gate-timing off) or has no basis. It never fails the run, is not counted
 * among the verdicts, and is worded as information with its change. New and missing metrics are not this.
 */
export function informational(v: Verdict): boolean {
  return (v.kind === 'ratio' || v.kind === 'time') && v.process === undefined && v.baseline?.kind === v.kind && v.current?.kind === v.kind;
}

/** The per-process values of a ratio or time: its `processes`, or its one value. */
export function perProcessValues(m: Metric): readonly number[] {
  return m.processes && m.processes.length >= 1 ? m.processes : [m.value];
}

const varies = (xs: readonly number[]) => xs.length >= 2 && xs.some((x) => x !== xs[0]);

/**
 * How a ratio or time can be judged across processes, one rule for both kinds: 'permutation'
 * when both sides hold >= 2 per-process values (an exact permutation test, judgeProcesses);
 * 'prediction' when the baseline holds several (varying) values and the run one, or the baseline
 * one and the profile's calibrated spread is known (ratios only: the calibration measures a
 * ratio's spread; judgeOneProcess); null when nothing can judge it (a one-process baseline and no
 * calibration, or a value <= 0 that has no logarithm).
 */
export function judgingBasis(b: Metric, c: Metric, spread: KnownSpread | null): 'permutation' | 'prediction' | null {
  if (b.kind !== c.kind || (b.kind !== 'ratio' && b.kind !== 'time')) return null;
  const [base, head] = [perProcessValues(b), perProcessValues(c)];
  if (![...base, ...head].every((x) => x > 0)) return null;
  if (base.length >= 2 && head.length >= 2) return 'permutation';
  if (base.length >= 2) return varies(base) || spread ? 'prediction' : null;
  // K run processes against one baseline value, or one against one: only with the calibrated
  // spread (on this machine's pools a run's own 8 values alone gave 1.3% family-wise false alarms).
  return spread && b.kind === 'ratio' ? 'prediction' : null;
}

/** Whether a metric pair is judged, and so gates: ratios with a basis; times with one only under --gate-timing. */
export function isJudged(b: Metric, c: Metric, options: Pick<JudgeOptions, 'gateTiming' | 'spread' | 'metricSpreads' | 'ratiosGate'>): boolean {
  // A covariate (the host-state probe) describes the machine, not the code: it adjusts others, never gates.
  if (isCovariateMetric(b) || isCovariateMetric(c)) return false;
  // Information (the sync floor, a computed limit) describes the machine: shown, never judged.
  if (directionOf(b) === 'info' || directionOf(c) === 'info') return false;
  if (b.kind === 'ratio' && options.ratiosGate === false) return false;
  return judgingBasis(b, c, spreadFor(b, options)) !== null && (b.kind === 'ratio' || options.gateTiming);
}

/**
 * The known between-process spread that floors a ratio's judgement: the wider of the profile's
 * calibration (one spread for every ratio) and this metric's own spread pooled over the profile's
 * recorded multi-process runs (results/recorded-spread.ts); null for other kinds or when neither exists.
 */
export function spreadFor(m: Metric, options: Pick<JudgeOptions, 'spread' | 'metricSpreads'>): KnownSpread | null {
  if (m.kind !== 'ratio') return null;
  const [general, own] = [options.spread ?? null, options.metricSpreads?.get(m.id) ?? null];
  return general && own ? (own.sd > general.sd ? own : general) : (general ?? own);
}

/**
 * Default tolerances by kind: exact has no noise; ratios get 10% (npm run perf:calibrate);
 * times 50%, since absolute times of separate processes on the CI's software device differ by
 * up to ~50% (medians of the same scenario across runs, 2026-12); judged only under --gate-timing.
 */
export const DEFAULT_TOLERANCE: Record<MetricKind, number> = { exact: 0, ratio: 0.1, time: 0.5, quality: 0 };

export interface JudgeOptions {
  readonly tolerance: number;
  /** Absolute times are judged, and gate, only when asked (--gate-timing, PERF_GATE_TIMING=1). */
  readonly gateTiming: boolean;
  /** The profile's calibrated between-process spread of a ratio (its calibration file), if any. */
  readonly spread?: KnownSpread | null;
  /** Each ratio's own between-process spread pooled over the profile's recorded runs (results/recorded-spread.ts), by metric id. */
  readonly metricSpreads?: ReadonlyMap<string, KnownSpread>;
  /** The one-sided level of a prediction-interval verdict: FAMILY_FALSE_ALARM / (such verdicts in the comparison). */
  readonly predictionAlpha?: number;
  /**
   * Whether ratios may gate at all (default true): false when they are judged against another
   * CPU's baseline with no measured allowance (results/compare.ts), so each is information.
   */
  readonly ratiosGate?: boolean;
  /** The covariate's per-process values on each side (its own metric), for a metric that names one. */
  readonly covariate?: ProcessSamples['covariate'];
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

function judgeExact(b: Metric, c: Metric): Pick<Verdict, 'verdict' | 'reason'> {
  if (b.value === c.value) return { verdict: 'pass', reason: `equal to the baseline (${c.value})` };
  const diff = c.value - b.value;
  return { verdict: 'regressed', reason: `${c.value} vs baseline ${b.value} (${diff > 0 ? '+' : ''}${diff} ${c.unit}): exact metrics must not change` };
}

/**
 * A ratio measured in one process, against the band baseline x (1 +/- tol): 'regressed' when its
 * whole 95% CI lies beyond it on the worse side (below for a speedup, above where smaller is
 * better), 'improved' when wholly beyond on the better side, 'pass' when the estimate is inside,
 * else 'inconclusive'. Only for a ratio that nothing can judge across
 * processes (`judgingBasis` null): these names only sort it, it never gates; an in-process CI
 * says nothing about the next process, so the reason states where the CI lies and no more.
 */
function judgeRatio(b: Metric, c: Metric, tol: number): Pick<Verdict, 'verdict' | 'reason'> {
  const lo = b.value * (1 - tol);
  const hi = b.value * (1 + tol);
  const [ciLo, ciHi] = c.ci ?? [c.value, c.value];
  const band = `baseline ${b.value.toFixed(3)} +/- ${pct(tol)} = [${lo.toFixed(3)}, ${hi.toFixed(3)}]`;
  const ci = c.ci ? `95% CI [${ciLo.toFixed(3)}, ${ciHi.toFixed(3)}]` : `value ${c.value.toFixed(3)} (no CI)`;
  const where = 'in this one process';
  const smaller = directionOf(c) === 'smaller';
  const [belowVerdict, aboveVerdict] = smaller ? (['improved', 'regressed'] as const) : (['regressed', 'improved'] as const);
  const better = smaller ? ' (smaller is better)' : '';
  if (ciHi < lo) return { verdict: belowVerdict, reason: `${ci} ${where} lies wholly below ${band}${better}` };
  if (ciLo > hi) return { verdict: aboveVerdict, reason: `${ci} ${where} lies wholly above ${band}${better}` };
  if (c.value >= lo && c.value <= hi) return { verdict: 'pass', reason: `estimate ${c.value.toFixed(3)} ${where} within ${band}` };
  return { verdict: 'inconclusive', reason: `estimate ${c.value.toFixed(3)} ${where} outside ${band}, its ${ci} reaching it` };
}

/**
 * A time not judged (smaller is better, unless it declared otherwise): information; outside
 * baseline x (1 +/- tol) it is marked, not proven. From 0 the change is named, not divided.
 */
function judgeTime(b: Metric, c: Metric, tol: number): Pick<Verdict, 'verdict' | 'reason'> {
  const change = relativeChange(b.value, c.value);
  const said = change === 'from 0' ? 'from 0' : `${change >= 0 ? '+' : ''}${pct(change)}`;
  const text = `${c.value.toPrecision(3)} ${c.unit} vs baseline ${b.value.toPrecision(3)} (${said}, tolerance ${pct(tol)})`;
  const worse = (worseSign(directionOf(c)) ?? 0) * (change === 'from 0' ? Number.POSITIVE_INFINITY : change);
  if (worse > tol) return { verdict: 'regressed', reason: text };
  if (worse < -tol) return { verdict: 'improved', reason: text };
  return { verdict: 'pass', reason: text };
}

/** A quality metric must lie within the baseline's bound (code cannot loosen it), else the run's. */
function judgeQuality(b: Metric, c: Metric): Pick<Verdict, 'verdict' | 'reason'> {
  const bound = b.bound ?? c.bound ?? {};
  const okMin = bound.min === undefined || c.value >= bound.min;
  const okMax = bound.max === undefined || c.value <= bound.max;
  const range = `[${bound.min ?? '-inf'}, ${bound.max ?? 'inf'}]`;
  return okMin && okMax ? { verdict: 'pass', reason: `${c.value} within ${range}` } : { verdict: 'regressed', reason: `${c.value} outside ${range}` };
}

/** Judges one metric; either side may be absent (new or missing). */
export function judgeMetric(baseline: Metric | null, current: Metric | null, options: JudgeOptions): Verdict {
  const metric = current ?? baseline;
  if (!metric) throw new Error('judgeMetric needs a baseline or a current metric');
  const kind = metric.kind;
  // One rule for ratios and times: judged across processes (judgingBasis) and then gating;
  // absolute times only under --gate-timing (they differ between machines of one kind).
  const judged = baseline !== null && current !== null && isJudged(baseline, current, options);
  const gates = kind === 'exact' || kind === 'quality' || judged;
  const base = { id: metric.id, kind, baseline, current, tolerance: options.tolerance, gates };
  if (!baseline) return { ...base, verdict: 'new', reason: 'not in the baseline' };
  if (!current) return { ...base, verdict: 'missing', reason: 'in the baseline, not in this run' };
  if (baseline.kind !== current.kind) {
    return { ...base, gates: true, verdict: 'regressed', reason: `kind changed from ${baseline.kind} to ${current.kind}` };
  }
  if (judged && (kind === 'ratio' || kind === 'time')) {
    const direction = directionOf(current);
    const samples = {
      id: metric.id,
      kind,
      ...(direction === 'bigger' || direction === 'smaller' ? { direction } : {}),
      base: perProcessValues(baseline),
      head: perProcessValues(current),
      ...(options.covariate ? { covariate: options.covariate } : {}),
    };
    if (judgingBasis(baseline, current, spreadFor(baseline, options)) === 'permutation') {
      const process = judgeProcesses(samples, { tolerance: options.tolerance, alpha: DEFAULT_PROCESS_ALPHA });
      return { ...base, verdict: process.verdict, reason: `across processes (${process.processes[0]} vs ${process.processes[1]}): ${process.reason}`, process };
    }
    const process = judgeOneProcess(
      samples,
      { tolerance: options.tolerance, alpha: options.predictionAlpha ?? FAMILY_FALSE_ALARM },
      spreadFor(baseline, options),
    );
    return { ...base, verdict: process.verdict, reason: `prediction interval: ${process.reason}`, process };
  }
  const judgedInfo =
    kind === 'exact'
      ? judgeExact(baseline, current)
      : kind === 'ratio'
        ? judgeRatio(baseline, current, options.tolerance)
        : kind === 'time'
          ? judgeTime(baseline, current, options.tolerance)
          : judgeQuality(baseline, current);
  return { ...base, ...judgedInfo };
}

/**
 * Whether a ratio or time lies beyond its tolerance band in its worse direction (directionOf: a
 * lower speedup, a longer time, a higher step-time ratio), judged or not: what the console marks
 * beside a scenario. Across processes the geometric means are compared.
 */
export function beyondBand(v: Verdict): boolean {
  if (!v.baseline || !v.current || v.baseline.kind !== v.current.kind) return false;
  if (v.kind !== 'ratio' && v.kind !== 'time') return false;
  const sign = worseSign(directionOf(v.current));
  if (sign === null) return false;
  const [b, c] = v.process ? [v.process.base, v.process.head] : [v.baseline.value, v.current.value];
  if (!(b > 0)) return false;
  return sign * (c / b - 1) > v.tolerance;
}

/**
 * What a report must never pass over with a tick: a regressed verdict (judged or information) or
 * a ratio or judged time beyond its band in the bad direction. An absolute time that is not
 * judged (no --gate-timing) is counted as information instead, not flagged one by one.
 */
export function flagged(v: Verdict): boolean {
  if (!v.current || !v.baseline) return false;
  if (v.kind === 'time' && !v.gates) return false;
  return v.verdict === 'regressed' || beyondBand(v);
}
