import type { CommandSpec } from './command-spec.js';
import { judgeCompare } from './compare/judge.js';
import { type CompareCommandArgs, planCompare } from './compare/plan.js';
import { writeCompare } from './compare/write.js';

export { type CompareCommandArgs, latestRunPath } from './compare/plan.js';

/**
 * `npm run perf:compare`: compares a stored run (default: the latest) with its profile's baseline.
 * Plan (the run read, outputs checked), judge, write (src/cli/compare/); nothing is measured.
 */
export async function compareCommand(args: CompareCommandArgs): Promise<number> {
  const plan = await planCompare(args);
  return writeCompare(plan, await judgeCompare(plan));
}

/** `gtp compare` (`npm run perf:compare` here): its flags, help, parse step and runner. */
export const compareSpec: CommandSpec<CompareCommandArgs> = {
  name: 'compare',
  summary: "judge a stored run against its profile's baseline",
  synopsis: '[RUN.json] [options]',
  about: ["Judges a stored run record (default: the latest in results/) against its profile's baseline."],
  options: ['compare', 'force'],
  positionals: 1,
  env: [],
  exits: [
    '0 every gating metric passed',
    '1 a gating metric regressed',
    '2 bad usage or bad input (an unreadable or invalid run or baseline file, a --baselines folder that does not exist)',
    "3 no baseline for the run's device (its profile's, or the same device's from another CPU),",
    '  or a profile, scale or data mismatch without',
    '  --allow-profile-mismatch (profile only), or nothing to judge (no metric on both sides that can be judged),',
    '  or nothing compared across profiles (no ratio or exact metric on both sides)',
  ],
  parse: (line) => ({ command: 'compare', run: line.positionals[0] ?? null, ...line.compare() }),
  run: compareCommand,
};
