import { appendFile, writeFile } from 'node:fs/promises';
import { comparisonMarkdown, renderComparison } from '../report/comparison.js';
import { baselinePathFor, readBaseline, type Baseline } from '../results/baseline.js';
import { compareWithBaseline, EXIT, type Comparison } from '../results/compare.js';
import type { RunRecord } from '../results/schema.js';
import { latestRecordPath, readRunRecord, RecordFileError, writeJsonAtomic } from '../results/storage.js';
import { UsageError, type CompareArgs } from './args.js';

/** The baseline a run is judged against, or null (with the path looked at) when there is none. */
export async function findBaseline(run: RunRecord, args: Pick<CompareArgs, 'baseline'>): Promise<{ path: string; baseline: Baseline | null }> {
  const path = args.baseline ?? baselinePathFor(run.profile.id, run.scale);
  try {
    return { path, baseline: await readBaseline(path) };
  } catch (error) {
    // No default baseline yet is normal; an explicit --baseline that cannot be read is bad input.
    if (!args.baseline && error instanceof RecordFileError && /ENOENT/.test(error.message)) return { path, baseline: null };
    throw error;
  }
}

/** Prints a comparison, writes it where asked (Markdown, JSON, CI job summary), returns its exit code. */
export async function reportComparison(comparison: Comparison, args: CompareArgs): Promise<number> {
  console.log(`\n${renderComparison(comparison, process.stdout.isTTY === true)}`);
  const markdown = comparisonMarkdown(comparison);
  if (args.markdown) await writeFile(args.markdown, markdown);
  if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, markdown);
  if (args.json) await writeJsonAtomic(args.json, comparison);
  return comparison.exitCode;
}

/** What to say when a profile has no baseline yet. */
export function noBaselineMessage(run: RunRecord, path: string, runPath: string): string {
  return `No baseline for profile ${run.profile.id} (${run.scale} scale) at ${path}: nothing compared. Accept this run with: npm run perf:baseline -- ${runPath}`;
}

/** `npm run perf:compare`: compares a stored run (default: the latest) with its profile's baseline. */
export async function runCompare(args: CompareArgs & { run: string | null }): Promise<number> {
  const runPath = args.run ?? (await latestRecordPath());
  if (!runPath) throw new UsageError('no run record given and none in results/: run `npm run perf` first');
  const run = await readRunRecord(runPath);
  console.log(`Run: ${runPath} (profile ${run.profile.id}, ${run.scale}, ${run.createdAt})`);
  const { path, baseline } = await findBaseline(run, args);
  if (!baseline) {
    console.log(noBaselineMessage(run, path, runPath));
    return EXIT.noBaseline;
  }
  console.log(`Baseline: ${path} (accepted from ${baseline.accepted.from} at ${baseline.accepted.at})`);
  return reportComparison(compareWithBaseline(run, baseline, args), args);
}
