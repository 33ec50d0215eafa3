import { findBaseline, noBaselineMessage } from '../results/baseline.js';
import { judgingContext } from '../results/host-allowance.js';
import { compareWithBaseline, EXIT } from '../results/compare.js';
import { latestRecord, readRunRecord, RESULTS_DIR, skippedNote } from '../results/storage.js';
import { writeExports } from '../report/write-exports.js';
import { exportOutputs, exportTargets } from '../report/exporters.js';
import type { CommandSpec, CompareArgs } from './command-spec.js';
import { UsageError } from './usage-error.js';
import { checkJobSummary, checkOutputs } from '../results/output-guard.js';
import { commandLine } from '../base/commands.js';

/**
 * The latest run record in results/ (compare's and baseline's default), saying which entries
 * were passed over unopened (a FIFO or a dangling link named *.json).
 */
export async function latestRunPath(dir = RESULTS_DIR): Promise<string | null> {
  const latest = await latestRecord(dir);
  for (const s of latest.skipped) console.log(skippedNote(s));
  return latest.path;
}

/** What `compare` is asked. */
export type CompareCommandArgs = { readonly command: 'compare'; readonly run: string | null } & CompareArgs;

/** `npm run perf:compare`: compares a stored run (default: the latest) with its profile's baseline. */
export async function compareCommand(args: CompareCommandArgs): Promise<number> {
  const runPath = args.run ?? (await latestRunPath());
  if (!runPath) throw new UsageError(`no run record given and none in results/: run ${commandLine('perf')} first`);
  const run = await readRunRecord(runPath);
  const targets = exportTargets('compare', args.exports, null);
  await checkOutputs(exportOutputs(targets), args);
  await checkJobSummary(args.jobSummary, args);
  console.log(`Run: ${runPath} (profile ${run.profile.id}, ${run.scale}, ${run.createdAt})`);
  const { path, baseline } = await findBaseline(run, args.baseline, args.baselines);
  if (!baseline) {
    console.log(noBaselineMessage(run, path, runPath));
    return EXIT.noBaseline;
  }
  console.log(`Baseline: ${path} (accepted from ${baseline.accepted.from} at ${baseline.accepted.at})`);
  const comparison = compareWithBaseline(run, baseline, { ...args, ...(await judgingContext(run, path, baseline.profile.id)) });
  const input = { record: run, recordPath: runPath, comparison };
  const { renderComparison } = await import('../report/comparison.js');
  console.log(`\n${renderComparison(comparison, process.stdout.isTTY === true)}`);
  await writeExports(input, 'compare', targets, args.jobSummary);
  return comparison.exitCode;
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
    '  --allow-profile-mismatch (profile only), or nothing to judge (no metric on both sides that can be judged)',
  ],
  parse: (line) => ({ command: 'compare', run: line.positionals[0] ?? null, ...line.compare() }),
  run: compareCommand,
};
