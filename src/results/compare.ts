import { type Baseline, datasetMismatch } from './baseline.js';
import type { Metric, RunError, RunRecord } from './schema.js';
import { covariateIdOf } from './covariate.js';
import { judgingBasis, judgeMetric, isJudged, perProcessValues, type Verdict } from './verdict.js';
import { oneProcessAlpha, type KnownSpread } from './process-verdict.js';
import { EXIT } from './exit.js';
import { commandLine } from '../base/commands.js';

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
  const otherData = datasetMismatch(baseline.datasets, run.datasets);
  // Other data is not a regression: byte counts, batch counts and times all move with it, so no metric is judged.
  if (otherData) return refuse(`different data: ${otherData}; its metrics depend on the data, so none is judged against this baseline`);
  const mismatch = baseline.profile.id !== run.profile.id;
  if (mismatch && !options.allowProfileMismatch) {
    return refuse(
      `the baseline is for profile ${baseline.profile.id} and this run is ${run.profile.id}; pass --allow-profile-mismatch to compare ratio and exact metrics anyway`,
    );
  }
  const notes: string[] = mismatch ? [`profile mismatch allowed: ${run.profile.id} judged against ${baseline.profile.id}, ratio and exact metrics only`] : [];
  const comparable = (m: Metric) => !mismatch || m.kind === 'ratio' || m.kind === 'exact';
  const current = new Map(run.metrics.filter(comparable).map((m) => [m.id, m]));
  const base = new Map(baseline.metrics.filter(comparable).map((m) => [m.id, m]));
  const ids = [...new Set([...base.keys(), ...current.keys()])];
  const pairs = ids.map((id) => [base.get(id) ?? null, current.get(id) ?? null] as const);
  const judging = { gateTiming: options.gateTiming, spread: options.spread ?? null };
  const both = pairs.flatMap(([b, c]) => (b && c ? [[b, c] as const] : []));
  // The family of one-process verdicts: each at FAMILY_FALSE_ALARM / family (Bonferroni), so
  // an unchanged run fails on any of them at most 1% of the time.
  const predicted = both.filter(([b, c]) => isJudged(b, c, judging) && judgingBasis(b, c, b.kind === 'ratio' ? judging.spread : null) === 'prediction');
  const predictionAlpha = oneProcessAlpha(Math.max(1, predicted.length));
  const verdicts = pairs.map(([b, c]) => {
    const tolerance = (b as { tolerance?: number } | null)?.tolerance ?? 0;
    const covariate = b && c ? covariateValues(b, c, base, current) : undefined;
    return judgeMetric(b, c, { tolerance, ...judging, predictionAlpha, ...(covariate ? { covariate } : {}) });
  });
  if (predicted.length > 0)
    notes.push(
      `${predicted.length} metric(s) of one process against several (or with the calibrated spread) judged by a prediction interval, each at one-sided level ${predictionAlpha.toPrecision(2)} = 1% / ${predicted.length}: an unchanged run fails on any of them at most 1% of the time (docs/baselines.md)`,
    );
  const unjudgedRatios = both.filter(([b, c]) => b.kind === 'ratio' && c.kind === 'ratio' && !isJudged(b, c, judging)).length;
  if (unjudgedRatios > 0)
    notes.push(
      `${unjudgedRatios} ratio(s) cannot gate: the baseline holds one process of each${options.spread === null ? ` and there is no ${baseline.profile.id}.calibration.json beside it` : ''}, and one process's CI says nothing about the next. To gate them, accept a baseline measured in several processes: ${commandLine('perf', '--processes 8 --out results/timing.json')}, then ${commandLine('baseline', 'results/timing.json --merge')}; or compare two commits with ${commandLine('ab', '--base <ref>')}`,
    );
  const unjudgedTimes = both.filter(([b, c]) => b.kind === 'time' && c.kind === 'time' && !isJudged(b, c, judging)).length;
  if (options.gateTiming && unjudgedTimes > 0)
    notes.push(
      `--gate-timing: ${unjudgedTimes} absolute time(s) cannot be judged: one process on each side and no calibrated spread for times; accept a baseline from --processes 8 to judge them`,
    );
  const failing = failingVerdicts(verdicts, run.selection);
  const failed = failing.length > 0 || run.errors.length > 0;
  return { ...head, verdicts, refused: null, notes, exitCode: failed ? EXIT.regression : EXIT.pass };
}
