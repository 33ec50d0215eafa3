import { findBaseline } from '../results/baseline.js';
import { compareWithBaseline, EXIT, type Comparison } from '../results/compare.js';
import { besideRecord, latestRecordPath, readRunRecord, writeTextAtomic } from '../results/storage.js';
import { htmlExporter } from '../report/html.js';
import { UsageError } from './args.js';
import { checkOutput } from '../results/output-guard.js';

/** What `npm run report -- [RUN.json] [--baseline FILE] [--out FILE]` was given. */
export interface ReportArgs {
  readonly run: string | null;
  readonly baseline: string | null;
  readonly baselines: string;
  readonly out: string | null;
  readonly force: boolean;
}

/**
 * `npm run report`: rebuilds a run's HTML report (default: the latest run in results/), judged
 * against its profile's baseline or --baseline. Exit codes as every command's: 0 written (and
 * passing, or no baseline to judge against: the page says so); 1 the run has errors or a gating
 * metric regressed (the page is still written); 2 bad usage or an unreadable run or baseline
 * file (main maps RecordFileError); 3 the comparison was refused (profile, scale or data mismatch).
 */
export async function reportCommand(args: ReportArgs): Promise<number> {
  const runPath = args.run ?? (await latestRecordPath());
  if (!runPath) throw new UsageError('no run record given and none in results/: run `npm run perf` first');
  const record = await readRunRecord(runPath);
  const { path: baselinePath, baseline } = await findBaseline(record, args.baseline, args.baselines);
  const comparison: Comparison | null = baseline ? compareWithBaseline(record, baseline, { allowProfileMismatch: false, gateTiming: false }) : null;
  const out = args.out ?? besideRecord(runPath, '.html');
  await checkOutput({ path: out, kind: 'HTML report', flag: args.out ? '--out' : 'the HTML report beside the run record' }, args);
  await writeTextAtomic(out, await htmlExporter.render({ record, recordPath: runPath, comparison }, { color: false }));
  console.log(`Report: ${out} (run ${runPath}; ${baseline ? `baseline ${baselinePath}` : `no baseline at ${baselinePath}`})`);
  if (!comparison) return record.errors.length > 0 ? EXIT.regression : EXIT.pass;
  return comparison.exitCode;
}
