import { commandLine } from '../../base/commands.js';
import { type ExportTarget, exportOutputs, exportTargets } from '../../report/exporters.js';
import { checkJobSummary, checkOutputs } from '../../results/output-guard.js';
import type { RunRecord } from '../../results/schema.js';
import { latestRecord, RESULTS_DIR, readRunRecord, skippedNote } from '../../results/storage.js';
import type { CompareArgs } from '../command-spec.js';
import { UsageError } from '../usage-error.js';

/** What `compare` is asked. */
export type CompareCommandArgs = { readonly command: 'compare'; readonly run: string | null } & CompareArgs;

/**
 * The latest run record in results/ (compare's and baseline's default), saying which entries
 * were passed over unopened (a FIFO or a dangling link named *.json).
 */
export async function latestRunPath(dir = RESULTS_DIR): Promise<string | null> {
  const latest = await latestRecord(dir);
  for (const s of latest.skipped) console.log(skippedNote(s));
  return latest.path;
}

/** One `compare` as the later phases need it: the run read, the outputs checked, no flag left to read. */
export interface ComparePlan {
  readonly runPath: string;
  readonly run: RunRecord;
  /** The --baseline file (null: the run's profile's own in `dir`). */
  readonly baseline: { readonly file: string | null; readonly dir: string };
  readonly judging: { readonly allowProfileMismatch: boolean; readonly gateTiming: boolean };
  /** The export files asked for, checked writable. */
  readonly exports: readonly ExportTarget[];
  readonly jobSummary: string | null;
  /** Colours on the console: stdout is a terminal. */
  readonly color: boolean;
}

/** The plan phase of `compare`: the run record found and read, every output checked; says which run it judges. */
export async function planCompare(args: CompareCommandArgs): Promise<ComparePlan> {
  const runPath = args.run ?? (await latestRunPath());
  if (!runPath) throw new UsageError(`no run record given and none in results/: run ${commandLine('perf')} first`);
  const run = await readRunRecord(runPath);
  const exports = exportTargets('compare', args.exports, null);
  await checkOutputs(exportOutputs(exports), args);
  await checkJobSummary(args.jobSummary, args);
  console.log(`Run: ${runPath} (profile ${run.profile.id}, ${run.scale}, ${run.createdAt})`);
  return {
    runPath,
    run,
    baseline: { file: args.baseline, dir: args.baselines },
    judging: { allowProfileMismatch: args.allowProfileMismatch, gateTiming: args.gateTiming },
    exports,
    jobSummary: args.jobSummary,
    color: process.stdout.isTTY === true,
  };
}
