import type { AbResult } from '../../results/ab-result.js';
import { writeJsonOutput, writeOutput } from '../../results/output-guard.js';
import { appendJobSummary, writeAbExports } from '../../report/write-exports.js';
import type { AbPlan } from './plan.js';

/** The write phase of `ab`: the verdicts on the console, in every file the plan named and the job summary; the exit code. */
export async function writeAb(plan: Pick<AbPlan, 'json' | 'markdown' | 'exports' | 'jobSummary'>, result: AbResult): Promise<number> {
  const { abMarkdown, renderAb } = await import('../../report/ab.js');
  console.log(`\n${renderAb(result)}`);
  if (plan.json) await writeJsonOutput(plan.json, result);
  if (plan.markdown) await writeOutput(plan.markdown, abMarkdown(result));
  await writeAbExports(result, plan.exports);
  await appendJobSummary(plan.jobSummary, abMarkdown(result));
  return result.exitCode;
}
