import type { Comparison } from '../results/compare.js';
import { extendProcesses } from '../results/combine.js';
import { poolRatioMetric } from '../results/metrics.js';
import type { RunRecord } from '../results/schema.js';

/**
 * The decision part of `runPerfSuite`'s judge / re-measure loop, with no vitest and no device:
 * which ratio metrics a first judgement sends to a second measurement, in how many processes,
 * how the two measurements make one record, and that it happens once at most.
 *
 * - One process (`--processes 1`): a ratio whose in-process 95% CI lies wholly below the
 *   baseline's band ('regressed', with paired samples) is measured once more in one process and
 *   re-judged on the pooled pairs of both measurements.
 * - K processes: a ratio judged 'inconclusive' across processes gets K more processes once and is
 *   judged on all 2K (the sequential design's second look). A 'regressed' one is final there.
 * - Exact, quality and time metrics are never re-measured: exact ones have no noise.
 */
export type Remeasure =
  | { readonly how: 'pool'; readonly ids: readonly string[]; readonly scenarios: readonly string[]; readonly processes: 1 }
  | { readonly how: 'extend'; readonly ids: readonly string[]; readonly scenarios: readonly string[]; readonly processes: number };

/** What a first judgement asks to measure again (`processes`: the run's K), or null when nothing. */
export function remeasurePlan(comparison: Comparison, processes: number): Remeasure | null {
  const chosen =
    processes > 1
      ? comparison.verdicts.filter((v) => v.process && v.kind === 'ratio' && v.verdict === 'inconclusive')
      : comparison.verdicts.filter((v) => v.kind === 'ratio' && v.verdict === 'regressed' && v.current?.samples);
  if (chosen.length === 0) return null;
  const ids = chosen.map((v) => v.id);
  const scenarios = [...new Set(chosen.map((v) => v.current!.scenario))];
  return processes > 1 ? { how: 'extend', ids, scenarios, processes } : { how: 'pool', ids, scenarios, processes: 1 };
}

/** The line printed before the second measurement starts. */
export function remeasureMessage(plan: Remeasure): string {
  return plan.how === 'pool'
    ? `\n${plan.ids.join(', ')}: 95% CI below the baseline's band in this process; measuring scenario(s) ${plan.scenarios.join(', ')} once more and pooling the pairs.`
    : `\nInconclusive across processes: ${plan.ids.join(', ')}; measuring ${plan.processes} more processes of ${plan.scenarios.join(', ')} once.`;
}

/**
 * The record judged again: `first` with the second measurement `again` (null: it produced no
 * record, which the record's notes then say). Pooling replaces each planned ratio by one judged
 * on the pairs of both measurements and keeps the second measurement's errors (named as such)
 * and diagnostics; extending appends the K more per-process values (results/combine.ts).
 */
export function combineLooks(first: RunRecord, plan: Remeasure, again: RunRecord | null): RunRecord {
  if (!again) {
    const what = plan.how === 'pool' ? 'the second measurement' : `one of the ${plan.processes} more processes`;
    return {
      ...first,
      notes: [
        ...first.notes,
        `Re-measuring ${plan.ids.join(', ')}: ${what} produced no run record (no scenario reached a backend); judged on the first measurement alone.`,
      ],
    };
  }
  if (plan.how === 'extend') return extendProcesses(first, again);
  const pooled = new Map(
    plan.ids.flatMap((id) => {
      const current = first.metrics.find((m) => m.id === id && m.samples);
      const second = again.metrics.find((m) => m.id === id && m.samples);
      return current && second ? [[id, poolRatioMetric(current, second)] as const] : [];
    }),
  );
  const diagnostics = [...(first.diagnostics ?? []), ...(again.diagnostics ?? [])];
  return {
    ...first,
    metrics: first.metrics.map((m) => pooled.get(m.id) ?? m),
    errors: [...first.errors, ...again.errors.map((e) => ({ ...e, test: `${e.test} (re-measure)` }))],
    ...(diagnostics.length > 0 ? { diagnostics } : {}),
  };
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
