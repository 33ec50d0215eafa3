import { findBaseline } from '../../results/baseline.js';
import { compareWithBaseline, type Comparison } from '../../results/compare.js';
import { judgingContext } from '../../results/host-allowance.js';
import type { ComparePlan } from './plan.js';

/** A stored run judged against its profile's baseline (comparison null: there was none). */
export interface CompareJudged {
  /** The baseline file looked at (whether or not it existed). */
  readonly baselinePath: string;
  readonly comparison: Comparison | null;
}

/**
 * The judge phase of `compare` (it measures nothing: the run was read): the run's baseline found
 * and named, the run judged against it with the profile's calibrated spread and host allowance.
 */
export async function judgeCompare(plan: Pick<ComparePlan, 'run' | 'baseline' | 'judging'>): Promise<CompareJudged> {
  const { path, baseline } = await findBaseline(plan.run, plan.baseline.file, plan.baseline.dir);
  if (!baseline) return { baselinePath: path, comparison: null };
  console.log(`Baseline: ${path} (accepted from ${baseline.accepted.from} at ${baseline.accepted.at})`);
  const context = await judgingContext(plan.run, path, baseline);
  return { baselinePath: path, comparison: compareWithBaseline(plan.run, baseline, { ...plan.judging, ...context }) };
}
