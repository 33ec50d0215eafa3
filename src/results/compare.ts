import { type Baseline, datasetMismatch, undescribedDataMismatch } from './baseline.js';
import type { Metric, RunError, RunRecord } from './schema.js';
import { covariateIdOf } from './covariate.js';
import { judgingBasis, judgeMetric, isJudged, perProcessValues, spreadFor, type Verdict } from './verdict.js';
import { oneProcessAlpha, type KnownSpread } from './process-verdict.js';
import { EXIT } from './exit.js';
import { commandLine } from '../base/commands.js';
import { sameDeviceOtherHost } from '../backend/fingerprint.js';
import { allowanceOf, type HostAllowance } from './host-allowance.js';

/** Exit codes of a comparison (and of every command: results/exit.ts). */
export { EXIT } from './exit.js';

export interface CompareOptions {
  /** Compare with a baseline of another hardware profile: then only ratio and exact metrics. */
  readonly allowProfileMismatch: boolean;
  /** Judge absolute times across processes too, and let them fail the run (--gate-timing, PERF_GATE_TIMING=1). */
  readonly gateTiming: boolean;
  /**
   * The baseline profile's calibrated between-process spread of a ratio (readCalibratedSpread:
   * `<profile>.calibration.json` beside the baseline), or null when it has none; undefined: not looked for.
   */
  readonly spread?: KnownSpread | null;
  /**
   * Each ratio's own between-process spread pooled over the baseline profile's recorded
   * multi-process runs (readRecordedSpreads: history/<profile>/ beside the baselines folder); a floor as `spread` is.
   */
  readonly metricSpreads?: ReadonlyMap<string, KnownSpread>;
  /**
   * The measured host allowance for a baseline of the same device on another CPU model
   * (results/host-allowance.ts readHostAllowance), null when nothing measured one; undefined: not looked for.
   */
  readonly hostAllowance?: HostAllowance | null;
}

/** How a run was judged against a baseline of the same device recorded on a host of another CPU model. */
export interface OtherHost {
  readonly baselineProfile: string;
  /** The baseline's CPU model, as it recorded it. */
  readonly baselineCpu: string;
  readonly runCpu: string;
  /**
   * Relative allowance added to every ratio's tolerance (absolute times are not judged); null when
   * nothing measured one for this device: then ratios are shown, not gated, and exact metrics judge.
   */
  readonly allowance: number | null;
  /** Each ratio's own allowance where one was measured between CPUs (HostAllowance.byMetric). */
  readonly byMetric?: Readonly<Record<string, number>>;
  /** Where the allowance was measured, in words; null with no allowance. */
  readonly source: string | null;
  /** One sentence every report prints: 'judged against X, recorded on another CPU: allowance ±X%'. */
  readonly summary: string;
}

/** The outcome of comparing one run with one baseline. */
export interface Comparison {
  readonly runProfile: string;
  readonly baselineProfile: string;
  readonly scale: RunRecord['scale'];
  readonly verdicts: readonly Verdict[];
  /** Why the comparison was refused (profile or scale mismatch), else null. */
  readonly refused: string | null;
  /** Plain-language notes on how it was judged (profile mismatch, re-measurement). */
  readonly notes: readonly string[];
  /** The run's own errors (failed scenarios): a run with errors never passes. */
  readonly errors: readonly RunError[];
  readonly exitCode: number;
  /** Set when the baseline is the same device recorded on a host of another CPU model. */
  readonly otherHost?: OtherHost;
}

/**
 * Whether a run covered a scenario: every scenario when nothing was selected, else the selected
 * files, named NN-<scenario>.spec.ts / NN-<scenario>.perf.ts (src/runner/scenarios.ts).
 */
export function ranScenario(selection: RunRecord['selection'], scenario: string): boolean {
  return selection === null || selection.some((path) => new RegExp(`(^|/)\\d{2}-${scenario}\\.(spec|perf)\\.ts$`).test(path));
}

/**
 * Verdicts that fail the run: gating regressions, and gating metrics gone missing from a
 * scenario that ran (a --scenario run leaves the others out on purpose).
 */
export function failingVerdicts(verdicts: readonly Verdict[], selection: RunRecord['selection']): Verdict[] {
  return verdicts.filter(
    (v) => v.gates && (v.verdict === 'regressed' || (v.verdict === 'missing' && v.baseline !== null && ranScenario(selection, v.baseline.scenario))),
  );
}

/**
 * The per-process values of the covariate a metric names (the host-state probe), on both sides,
 * where each side holds one for every process of the metric; else undefined (judged as measured).
 */
function covariateValues(b: Metric, c: Metric, base: ReadonlyMap<string, Metric>, current: ReadonlyMap<string, Metric>) {
  const id = covariateIdOf(b) ?? covariateIdOf(c);
  const [cb, cc] = id ? [base.get(id), current.get(id)] : [];
  if (!cb || !cc) return undefined;
  const [xb, xc] = [perProcessValues(cb), perProcessValues(cc)];
  return xb.length === perProcessValues(b).length && xc.length === perProcessValues(c).length ? { base: xb, head: xc } : undefined;
}

/**
 * Compares a run with a baseline, metric by metric. Refuses (exit 3) a baseline of another
 * scale, or of another profile unless allowed; across profiles only ratio and exact metrics
 * are compared, since times and quality depend on the hardware.
 */
export function compareWithBaseline(run: RunRecord, baseline: Baseline, options: CompareOptions): Comparison {
  const head = { runProfile: run.profile.id, baselineProfile: baseline.profile.id, scale: run.scale, errors: run.errors };
  const refuse = (reason: string): Comparison => ({ ...head, verdicts: [], refused: reason, notes: [], exitCode: EXIT.noBaseline });
  if (baseline.scale !== run.scale) {
    return refuse(`the baseline is for the ${baseline.scale} scale and this run is ${run.scale}; quick and full are never compared`);
  }
  const otherData = datasetMismatch(baseline.datasets, run.datasets) ?? undescribedDataMismatch(baseline, run.datasets);
  // Other data is not a regression: byte counts, batch counts and times all move with it, so no metric is judged.
  if (otherData) return refuse(`different data: ${otherData}; its metrics depend on the data, so none is judged against this baseline`);
  const mismatch = baseline.profile.id !== run.profile.id;
  const otherHost = mismatch ? otherHostJudgement(run, baseline, options.hostAllowance) : null;
  // The same device on another CPU is judged as such, with or without --allow-profile-mismatch:
  // the flag would judge its ratios with no allowance at all.
  if (otherHost) return judge(run, baseline, options, otherHost);
  if (mismatch && !options.allowProfileMismatch) {
    return refuse(
      `the baseline is for profile ${baseline.profile.id} and this run is ${run.profile.id}; pass --allow-profile-mismatch to compare ratio and exact metrics anyway`,
    );
  }
  return judge(run, baseline, options, mismatch ? 'mismatch' : null);
}

const pct1 = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * For a baseline of the same device recorded on another CPU model (sameDeviceOtherHost): how it
 * is judged (with its measured allowance, or none: then exact metrics only); null for any other profile.
 */
function otherHostJudgement(run: RunRecord, baseline: Baseline, allowance: HostAllowance | null | undefined): OtherHost | null {
  if (!sameDeviceOtherHost(run.profile.id, baseline.profile.id)) return null;
  const against = `judged against ${baseline.profile.id}, recorded on another CPU (${baseline.profile.cpu.model}; this run ${run.profile.cpu.model})`;
  const machines = { baselineProfile: baseline.profile.id, baselineCpu: baseline.profile.cpu.model, runCpu: run.profile.cpu.model };
  // Nothing measured how far this device's ratios move between hosts: a ratio's move may be the
  // CPU's, so ratios are shown and not gated; exact metrics (bytes, leaks) do not depend on the CPU.
  if (!allowance)
    return {
      ...machines,
      allowance: null,
      source: null,
      summary: `${against}: exact metrics only; ratios shown, not gated, since nothing measured how far this device's ratios move between CPUs (no calibration of it beside the baseline, ${baseline.profile.id}.calibration.json); absolute times and quality not judged across CPUs`,
    };
  const own = Object.values(allowance.byMetric ?? {});
  const range =
    own.length > 0 ? `allowance by ratio, ±${pct1(Math.min(...own))} to ±${pct1(Math.max(...own))}` : `allowance ±${pct1(allowance.allowance)} on every ratio`;
  return {
    ...machines,
    allowance: allowance.allowance,
    ...(allowance.byMetric ? { byMetric: allowance.byMetric } : {}),
    source: allowance.source,
    summary: `${against}: ${range}, exact metrics as they are, absolute times and quality not judged across CPUs`,
  };
}

/**
 * Judges the metrics of `run` against `baseline`: all of them for its own profile; ratio and
 * exact metrics only for another profile (`'mismatch'`, asked for) or another host of the same
 * device (then each ratio's tolerance widened by the host allowance and every verdict saying so).
 */
function judge(run: RunRecord, baseline: Baseline, options: CompareOptions, across: OtherHost | 'mismatch' | null): Comparison {
  const head = { runProfile: run.profile.id, baselineProfile: baseline.profile.id, scale: run.scale, errors: run.errors };
  const otherHost = across !== null && across !== 'mismatch' ? across : null;
  const notes: string[] =
    across === 'mismatch'
      ? [`profile mismatch allowed: ${run.profile.id} judged against ${baseline.profile.id}, ratio and exact metrics only`]
      : otherHost
        ? [
            `${otherHost.summary}${otherHost.source === null ? '' : `; the allowance is measured from ${otherHost.source}`} (docs/baselines.md: what it covers); the gate that holds on any runner is ${commandLine('ab', '--base <ref>')}`,
          ]
        : [];
  const comparable = (m: Metric) => across === null || m.kind === 'ratio' || m.kind === 'exact';
  const current = new Map(run.metrics.filter(comparable).map((m) => [m.id, m]));
  const base = new Map(baseline.metrics.filter(comparable).map((m) => [m.id, m]));
  const ids = [...new Set([...base.keys(), ...current.keys()])];
  const pairs = ids.map((id) => [base.get(id) ?? null, current.get(id) ?? null] as const);
  // Across CPUs with no measured allowance a ratio is information, as with no cross-process basis.
  const judging = {
    gateTiming: options.gateTiming,
    spread: options.spread ?? null,
    ...(options.metricSpreads ? { metricSpreads: options.metricSpreads } : {}),
    ratiosGate: otherHost?.allowance !== null,
  };
  const both = pairs.flatMap(([b, c]) => (b && c ? [[b, c] as const] : []));
  // Across profiles nothing on both sides is nothing compared (a browser record against a Node
  // baseline: every id differs), not "N missing, M new" and a pass: exit 3, said in one line.
  if (across !== null && both.length === 0 && run.errors.length === 0) {
    const count = (n: number) => `${n} ${n === 1 ? 'metric' : 'metrics'}`;
    return {
      ...head,
      verdicts: [],
      refused: `nothing compared: no ratio or exact metric is on both sides (the run has ${count(current.size)} of those kinds, the baseline ${baseline.profile.id} ${count(base.size)}, none with the same id), so this run cannot be judged against it; compare it with a baseline of its own kind of run`,
      notes: [],
      exitCode: EXIT.noBaseline,
    };
  }
  // The family of one-process verdicts: each at FAMILY_FALSE_ALARM / family (Bonferroni), so
  // an unchanged run fails on any of them at most 1% of the time.
  const predicted = both.filter(([b, c]) => isJudged(b, c, judging) && judgingBasis(b, c, spreadFor(b, judging)) === 'prediction');
  const predictionAlpha = oneProcessAlpha(Math.max(1, predicted.length));
  const verdicts = pairs.map(([b, c]) => {
    const own = (b as { tolerance?: number } | null)?.tolerance ?? 0;
    // Another host: the ratio may move by the measured allowance on top of its own tolerance.
    const hostAllowance = otherHost && (b ?? c)!.kind === 'ratio' ? allowanceOf(otherHost, (b ?? c)!.id) : 0;
    const tolerance = own + hostAllowance;
    const covariate = b && c ? covariateValues(b, c, base, current) : undefined;
    const verdict = judgeMetric(b, c, { tolerance, ...judging, predictionAlpha, ...(covariate ? { covariate } : {}) });
    return otherHost ? { ...verdict, reason: `${verdict.reason}; ${otherHostWords(otherHost, verdict.kind, hostAllowance)}` } : verdict;
  });
  if (predicted.length > 0)
    notes.push(
      `${predicted.length} metric(s) of one process against several (or with the calibrated spread) judged by a prediction interval, each at one-sided level ${predictionAlpha.toPrecision(2)} = 1% / ${predicted.length}: an unchanged run fails on any of them at most 1% of the time (docs/baselines.md)`,
    );
  // (Across CPUs with no allowance the other-host note says why ratios do not gate.)
  const unjudgedRatios = judging.ratiosGate ? both.filter(([b, c]) => b.kind === 'ratio' && c.kind === 'ratio' && !isJudged(b, c, judging)).length : 0;
  if (unjudgedRatios > 0)
    notes.push(
      `${unjudgedRatios} ratio(s) cannot gate: the baseline holds one process of each${options.spread === null ? ` and there is no ${baseline.profile.id}.calibration.json beside it` : ''}, and one process's CI says nothing about the next. To gate them, accept a baseline measured in several processes: ${commandLine('perf', '--processes 8 --out results/timing.json')}, then ${commandLine('baseline', 'results/timing.json --merge')}; or compare two commits with ${commandLine('ab', '--base <ref>')}`,
    );
  const unjudgedTimes = both.filter(([b, c]) => b.kind === 'time' && c.kind === 'time' && !isJudged(b, c, judging)).length;
  if (options.gateTiming && unjudgedTimes > 0)
    notes.push(
      `--gate-timing: ${unjudgedTimes} absolute time(s) cannot be judged: one process on each side and no calibrated spread for times; accept a baseline from --processes 8 to judge them`,
    );
  // Scenarios one side lacks are named, not judged: skipped here (not selected), or lacking in the baseline (their metrics are new).
  for (const s of run.skipped ?? []) notes.push(`${s.scenario}: not judged, this run skipped it (${s.reason})`);
  for (const l of baseline.lacks ?? []) {
    const here = run.metrics.filter((m) => m.scenario === l.scenario).length;
    if (here > 0) notes.push(`${l.scenario}: not judged, the baseline lacks it (${l.reason}); its ${here} metric(s) here are new`);
  }
  const failing = failingVerdicts(verdicts, run.selection);
  const failed = failing.length > 0 || run.errors.length > 0;
  // Nothing judged is not a pass (issue 34): exit 3, as with no baseline (docs/usage.md). Judged means a
  // metric on both sides that gates, or a ratio (shown, with a note on how to make it gate); absolute
  // times without --gate-timing judge nothing. Metrics new to the baseline (a --shape question, a
  // scenario it lacks) are the run's news, said as such: not a refusal.
  // Across CPUs with no allowance a ratio is not shown as judged: it cannot gate for the CPU's sake, not the baseline's.
  const judged = (v: Verdict) => v.verdict === 'new' || (v.baseline !== null && v.current !== null && (v.gates || (v.kind === 'ratio' && judging.ratiosGate)));
  if (!failed && !verdicts.some(judged)) {
    const why =
      verdicts.length === 0
        ? 'neither the run nor the baseline has a metric to compare'
        : judging.ratiosGate
          ? `none of the run's metrics can be judged against this baseline (absolute times, not gated without --gate-timing)`
          : `none of the run's metrics can be judged against this baseline of another CPU: no exact metric, and ratios do not gate across CPUs without a measured allowance`;
    return { ...head, verdicts, refused: `nothing to judge: ${why}`, notes, exitCode: EXIT.noBaseline };
  }
  return { ...head, verdicts, refused: null, notes, exitCode: failed ? EXIT.regression : EXIT.pass, ...(otherHost ? { otherHost } : {}) };
}

/** What each verdict judged against another host's baseline says of it. */
function otherHostWords(o: OtherHost, kind: Metric['kind'], allowance: number): string {
  const against = `judged against ${o.baselineProfile}, recorded on another CPU`;
  if (kind !== 'ratio') return `${against}: exact, no allowance`;
  return o.allowance === null
    ? `${against}: not gated, no allowance between CPUs measured for this device`
    : `${against}: allowance ±${pct1(allowance)} (in the tolerance)`;
}
