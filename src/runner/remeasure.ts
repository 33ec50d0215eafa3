import type { Comparison } from '../results/compare.js';
import { extendProcesses } from '../results/combine.js';
import type { RunRecord } from '../results/schema.js';

/**
 * The decision part of perf's judge / re-measure loop (src/cli/perf/judge.ts), with no vitest and no device:
 * which ratio metrics a first judgement sends to a second measurement, in how many processes,
 * how the two measurements make one record, and that it happens once at most.
 *
 * - K processes: a ratio judged 'inconclusive' by the permutation test of K + K processes gets K
 *   more processes once and is judged on all 2K (the sequential design's second look, alpha 0.005
 *   per look). A 'regressed' one is final there.
 * - One process (`--processes 1`): one look. Its ratios are judged by a prediction interval at a
 *   family-wise level fixed for that one look (results/process-verdict.ts: judgeOneProcess), or
 *   are information when nothing can judge them; measuring again after seeing the value would be
 *   a second look that level does not allow for, and information is not worth minutes.
 * - Prediction-interval verdicts of K processes against a one-process baseline: one look too.
 * - Exact, quality and time metrics are never re-measured: exact ones have no noise.
 */
export interface Remeasure {
  readonly how: 'extend';
  readonly ids: readonly string[];
  readonly scenarios: readonly string[];
  readonly processes: number;
}

/** What a first judgement asks to measure again (`processes`: the run's K), or null when nothing. */
export function remeasurePlan(comparison: Comparison, processes: number): Remeasure | null {
  if (processes < 2) return null;
  const chosen = comparison.verdicts.filter((v) => v.process && v.process.method === undefined && v.kind === 'ratio' && v.verdict === 'inconclusive');
  if (chosen.length === 0) return null;
  return { how: 'extend', ids: chosen.map((v) => v.id), scenarios: [...new Set(chosen.map((v) => v.current!.scenario))], processes };
}

/** The line printed before the second measurement starts. */
export function remeasureMessage(plan: Remeasure): string {
  return `\nInconclusive across processes: ${plan.ids.join(', ')}; measuring ${plan.processes} more processes of ${plan.scenarios.join(', ')} once.`;
}

/**
 * The record judged again: `first` with the K more per-process values of `again` appended
 * (results/combine.ts); when `again` is null (it produced no record), `first` with a note saying so.
 */
export function combineLooks(first: RunRecord, plan: Remeasure, again: RunRecord | null): RunRecord {
  if (!again) {
    return {
      ...first,
      notes: [
        ...first.notes,
        `Re-measuring ${plan.ids.join(', ')}: one of the ${plan.processes} more processes produced no run record (no scenario reached a backend); judged on the first measurement alone.`,
      ],
    };
  }
  return extendProcesses(first, again);
}

/** The two impure steps of the loop: judging a record against the baseline, and measuring. */
export interface LoopSteps {
  readonly judge: (record: RunRecord) => Comparison;
  /** Runs the plan's scenarios in its number of processes; null when no scenario reached a backend. */
  readonly measure: (plan: Remeasure) => Promise<RunRecord | null>;
  readonly log?: (line: string) => void;
}

/**
 * Judges `record`; when the judgement leaves ratios open (see `remeasurePlan`), measures them
 * once more and judges the combined record. Never a third measurement, whatever the second
 * judgement says.
 */
export async function judgeWithSecondLook(
  record: RunRecord,
  processes: number,
  steps: LoopSteps,
): Promise<{ readonly record: RunRecord; readonly comparison: Comparison; readonly plan: Remeasure | null }> {
  const first = steps.judge(record);
  const plan = remeasurePlan(first, processes);
  if (!plan) return { record, comparison: first, plan };
  (steps.log ?? console.log)(remeasureMessage(plan));
  const combined = combineLooks(record, plan, await steps.measure(plan));
  return { record: combined, comparison: steps.judge(combined), plan };
}
