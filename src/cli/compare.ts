import { findBaseline, noBaselineMessage } from '../results/baseline.js';
import { readCalibratedSpread } from '../results/calibration.js';
import { compareWithBaseline, EXIT } from '../results/compare.js';
import { latestRecord, readRunRecord, RESULTS_DIR, skippedNote } from '../results/storage.js';
import { renderComparison } from '../report/comparison.js';
import { writeExports } from '../report/write-exports.js';
import { exportOutputs, exportTargets } from '../report/exporters.js';
import { UsageError, type CompareArgs } from './args.js';
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

/** `npm run perf:compare`: compares a stored run (default: the latest) with its profile's baseline. */
export async function compareCommand(args: CompareArgs & { run: string | null }): Promise<number> {
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
  const comparison = compareWithBaseline(run, baseline, { ...args, spread: await readCalibratedSpread(path, baseline.profile.id) });
  const input = { record: run, recordPath: runPath, comparison };
  console.log(`\n${renderComparison(comparison, process.stdout.isTTY === true)}`);
  await writeExports(input, 'compare', targets, args.jobSummary);
  return comparison.exitCode;
}
