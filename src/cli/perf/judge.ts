import { findBaseline } from '../../results/baseline.js';
import { compareWithBaseline, type Comparison } from '../../results/compare.js';
import { judgingContext } from '../../results/host-allowance.js';
import type { RunRecord } from '../../results/schema.js';
import { judgeWithSecondLook, type Remeasure } from '../../runner/remeasure.js';
import type { Measured } from './measure.js';
import type { PerfPlan } from './plan.js';

/** A run judged against its profile's baseline (comparison null: there was none). */
export interface Judged extends Measured {
  readonly comparison: Comparison | null;
  /** The baseline file looked at (whether or not it existed). */
  readonly baselinePath: string;
}

/** Measures the scenarios a first judgement left open once more (K more processes); null when none reached a backend. */
export type MeasureAgain = (asked: Remeasure) => Promise<RunRecord | null>;

/**
 * The judge phase of `perf`: finds the run's baseline and judges the run against it, measuring
 * open ratio verdicts once more (remeasure.ts). A failure here writes the measured record first
 * (keepingRecord), so minutes of measuring are never lost.
 */
export async function judgePerf(plan: Pick<PerfPlan, 'baseline' | 'judging' | 'processes'>, measured: Measured, measureAgain: MeasureAgain): Promise<Judged> {
  const { keepingRecord } = await import('../../runner/perf.js');
  const { record, recordPath } = measured;
  // The baseline was checked before measuring, but may have changed since; a second look may fail
  // to start: either way the measured run is kept.
  const { path: baselinePath, baseline } = await keepingRecord(recordPath, record, () => findBaseline(record, plan.baseline.file, plan.baseline.dir));
  if (!baseline) return { record, recordPath, comparison: null, baselinePath };
  // The profile's calibrated between-process spread, beside the baseline: what judges one process against one;
  // for a baseline of this device on another CPU, the host allowance too (results/host-allowance.ts).
  const context = await keepingRecord(recordPath, record, () => judgingContext(record, baselinePath, baseline));
  const judged = await keepingRecord(recordPath, record, () =>
    judgeWithSecondLook(record, plan.processes, {
      judge: (r) => compareWithBaseline(r, baseline, { ...plan.judging, ...context }),
      measure: measureAgain,
    }),
  );
  // A second look's record is the first's with more processes (results/combine.ts): its skipped kept.
  return { record: judged.record, recordPath, comparison: judged.comparison, baselinePath };
}
