import { DEFAULT_PROCESS_ALPHA, judgeProcesses, type ProcessVerdict } from './process-verdict.js';
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
  /** Whether this verdict can fail the run (exact and quality always; ratio and time when gating timing). */
  readonly gates: boolean;
  /** One sentence: why this verdict. */
  readonly reason: string;
  /** The cross-process test behind it, when both sides carry one value per process. */
  readonly process?: ProcessVerdict;
}

/**
 * A ratio or time of one process judged against its baseline: not on one value per process
 * (`--processes K`, perf:ab), so its in-process CI says nothing about the next process (the
 * process is the unit of replication). Its verdict is information, shown with its change and
 * worded as such; it fails the run only under --gate-timing. New and missing metrics are not this.
 */
export function fromOneProcess(v: Verdict): boolean {
  return (v.kind === 'ratio' || v.kind === 'time') && v.process === undefined && v.baseline?.kind === v.kind && v.current?.kind === v.kind;
}

/** Both sides measured in several processes (`--processes K`): judged on per-process values. */
function perProcess(b: Metric, c: Metric): boolean {
  return (b.kind === 'ratio' || b.kind === 'time') && (b.processes?.length ?? 0) >= 2 && (c.processes?.length ?? 0) >= 2;
}

/**
 * Default tolerances by kind: exact has no noise; ratios get 10% (npm run perf:calibrate);
 * times 50%, since absolute times of separate processes on the CI's software device differ by
 * up to ~50% (medians of the same scenario across runs, 2026-12), and they are informational.
 */
export const DEFAULT_TOLERANCE: Record<MetricKind, number> = { exact: 0, ratio: 0.1, time: 0.5, quality: 0 };

export interface JudgeOptions {
  readonly tolerance: number;
  /** Ratio and time verdicts fail the run only when asked (PERF_GATE_TIMING=1). */
  readonly gateTiming: boolean;
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

function judgeExact(b: Metric, c: Metric): Pick<Verdict, 'verdict' | 'reason'> {
  if (b.value === c.value) return { verdict: 'pass', reason: `equal to the baseline (${c.value})` };
  const diff = c.value - b.value;
  return { verdict: 'regressed', reason: `${c.value} vs baseline ${b.value} (${diff > 0 ? '+' : ''}${diff} ${c.unit}): exact metrics must not change` };
}

/**
 * A ratio (higher is better) measured in one process, against the band baseline x (1 +/- tol):
 * 'regressed' when its whole 95% CI lies below it, 'improved' when wholly above, 'pass' when the
 * estimate is inside, else 'inconclusive'. These names only sort it (and gate it under
 * --gate-timing, and pick suspects to measure again); an in-process CI says nothing about the
 * next process, so the reason states where the CI lies and no more (see `fromOneProcess`).
 */
function judgeRatio(b: Metric, c: Metric, tol: number): Pick<Verdict, 'verdict' | 'reason'> {
  const lo = b.value * (1 - tol);
  const hi = b.value * (1 + tol);
  const [ciLo, ciHi] = c.ci ?? [c.value, c.value];
  const band = `baseline ${b.value.toFixed(3)} +/- ${pct(tol)} = [${lo.toFixed(3)}, ${hi.toFixed(3)}]`;
  const ci = c.ci ? `95% CI [${ciLo.toFixed(3)}, ${ciHi.toFixed(3)}]` : `value ${c.value.toFixed(3)} (no CI)`;
  const where = 'in this one process';
  if (ciHi < lo) return { verdict: 'regressed', reason: `${ci} ${where} lies wholly below ${band}` };
  if (ciLo > hi) return { verdict: 'improved', reason: `${ci} ${where} lies wholly above ${band}` };
  if (c.value >= lo && c.value <= hi) return { verdict: 'pass', reason: `estimate ${c.value.toFixed(3)} ${where} within ${band}` };
  return { verdict: 'inconclusive', reason: `estimate ${c.value.toFixed(3)} ${where} outside ${band}, its ${ci} reaching it` };
}

/** A time (lower is better): informational; outside baseline x (1 +/- tol) it is marked, not proven. */
function judgeTime(b: Metric, c: Metric, tol: number): Pick<Verdict, 'verdict' | 'reason'> {
  const change = c.value / b.value - 1;
  const text = `${c.value.toPrecision(3)} ${c.unit} vs baseline ${b.value.toPrecision(3)} (${change >= 0 ? '+' : ''}${pct(change)}, tolerance ${pct(tol)})`;
  if (change > tol) return { verdict: 'regressed', reason: text };
  if (change < -tol) return { verdict: 'improved', reason: text };
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
  // Ratios judged across processes gate: that verdict holds from one process to the next
  // (README, calibration). Absolute times do not: they differ between machines of a kind.
  const crossProcess = baseline !== null && current !== null && baseline.kind === current.kind && perProcess(baseline, current);
  const gates = kind === 'exact' || kind === 'quality' || options.gateTiming || (crossProcess && kind === 'ratio');
  const base = { id: metric.id, kind, baseline, current, tolerance: options.tolerance, gates };
  if (!baseline) return { ...base, verdict: 'new', reason: 'not in the baseline' };
  if (!current) return { ...base, verdict: 'missing', reason: 'in the baseline, not in this run' };
  if (baseline.kind !== current.kind) {
    return { ...base, verdict: 'regressed', reason: `kind changed from ${baseline.kind} to ${current.kind}` };
  }
  if (crossProcess && (kind === 'ratio' || kind === 'time')) {
    const process = judgeProcesses(
      { id: metric.id, kind, base: baseline.processes!, head: current.processes! },
      { tolerance: options.tolerance, alpha: DEFAULT_PROCESS_ALPHA },
    );
    return { ...base, verdict: process.verdict, reason: `across processes (${process.processes[0]} vs ${process.processes[1]}): ${process.reason}`, process };
  }
  const judged =
    kind === 'exact'
      ? judgeExact(baseline, current)
      : kind === 'ratio'
        ? judgeRatio(baseline, current, options.tolerance)
        : kind === 'time'
          ? judgeTime(baseline, current, options.tolerance)
          : judgeQuality(baseline, current);
  return { ...base, ...judged };
}
