import { type Baseline, datasetMismatch } from './baseline.js';
import type { Metric, RunError, RunRecord } from './schema.js';
import { judgeMetric, type Verdict } from './verdict.js';
import { EXIT } from './exit.js';

/** Exit codes of a comparison (and of every command: results/exit.ts). */
export { EXIT } from './exit.js';

export interface CompareOptions {
  /** Compare with a baseline of another hardware profile: then only ratio and exact metrics. */
  readonly allowProfileMismatch: boolean;
  /** Let ratio and time verdicts fail the run (PERF_GATE_TIMING=1). */
  readonly gateTiming: boolean;
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
  if (otherData) return refuse(`${otherData}; byte counts and batch counts depend on the data`);
  const mismatch = baseline.profile.id !== run.profile.id;
  if (mismatch && !options.allowProfileMismatch) {
    return refuse(
      `the baseline is for profile ${baseline.profile.id} and this run is ${run.profile.id}; pass --allow-profile-mismatch to compare ratio and exact metrics anyway`,
    );
  }
  const notes = mismatch ? [`profile mismatch allowed: ${run.profile.id} judged against ${baseline.profile.id}, ratio and exact metrics only`] : [];
  const comparable = (m: Metric) => !mismatch || m.kind === 'ratio' || m.kind === 'exact';
  const current = new Map(run.metrics.filter(comparable).map((m) => [m.id, m]));
  const base = new Map(baseline.metrics.filter(comparable).map((m) => [m.id, m]));
  const ids = [...new Set([...base.keys(), ...current.keys()])];
  const verdicts = ids.map((id) => {
    const b = base.get(id) ?? null;
    const c = current.get(id) ?? null;
    const tolerance = (b as { tolerance?: number } | null)?.tolerance ?? 0;
    return judgeMetric(b, c, { tolerance, gateTiming: options.gateTiming });
  });
  const failing = failingVerdicts(verdicts, run.selection);
  const failed = failing.length > 0 || run.errors.length > 0;
  return { ...head, verdicts, refused: null, notes, exitCode: failed ? EXIT.regression : EXIT.pass };
}
