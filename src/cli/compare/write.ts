import { writeExports } from '../../report/write-exports.js';
import { noBaselineMessage } from '../../results/baseline.js';
import { EXIT } from '../../results/exit.js';
import type { CompareJudged } from './judge.js';
import type { ComparePlan } from './plan.js';

/** The write phase of `compare`: the verdicts on the console and in every export asked for; the exit code (3: no baseline). */
export async function writeCompare(plan: Pick<ComparePlan, 'run' | 'runPath' | 'exports' | 'jobSummary' | 'color'>, judged: CompareJudged): Promise<number> {
  const { comparison } = judged;
  if (!comparison) {
    console.log(noBaselineMessage(plan.run, judged.baselinePath, plan.runPath));
    return EXIT.noBaseline;
  }
  const { renderComparison } = await import('../../report/comparison.js');
  console.log(`\n${renderComparison(comparison, plan.color)}`);
  await writeExports({ record: plan.run, recordPath: plan.runPath, comparison }, 'compare', plan.exports, plan.jobSummary);
  return comparison.exitCode;
}
