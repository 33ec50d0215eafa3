import { commandLine } from '../../base/commands.js';
import { appendedLine, appendToHistory } from '../../history/store.js';
import type { ReportInput } from '../../report/exporter.js';
import { exportTargets } from '../../report/exporters.js';
import { writeExports } from '../../report/write-exports.js';
import { noBaselineMessage } from '../../results/baseline.js';
import type { Comparison } from '../../results/compare.js';
import { EXIT } from '../../results/exit.js';
import type { RunRecord } from '../../results/schema.js';
import { besideRecord, FileWriteError } from '../../results/storage.js';
import type { Judged } from './judge.js';
import type { PerfPlan } from './plan.js';

/**
 * The exports, the HTML report and the charts beside the written record; false (said on stderr)
 * when a file could not be written after the run (disk full, the folder gone): the record stays.
 */
async function writeReport(plan: Pick<PerfPlan, 'exports' | 'jobSummary' | 'verbose'>, input: ReportInput & { readonly recordPath: string }): Promise<boolean> {
  const { record, recordPath } = input;
  const html = besideRecord(recordPath, '.html');
  try {
    const beside = (extension: string) => ({ path: besideRecord(recordPath, extension), flag: 'beside the run record' });
    await writeExports(input, 'perf', exportTargets('perf', plan.exports, beside), plan.jobSummary);
    const { writeCharts } = await import('../../report/charts.js');
    const charts = await writeCharts(record, recordPath);
    const chartList = plan.verbose && charts.written.length > 0 ? `; charts: ${charts.written.join(', ')}` : '';
    console.log(`Report: ${html}${plan.verbose ? chartList : ' (every table and chart; --verbose prints the tables here)'}`);
    if (charts.unavailable) console.log(`note: ${charts.unavailable}`);
    for (const path of charts.skipped) console.log(`note: ${path} holds a file that is not a chart; it was left alone (that chart is in the HTML report).`);
    return true;
  } catch (error) {
    if (!(error instanceof FileWriteError)) throw error;
    console.error(`\nerror: ${error.message}; the run record is at ${recordPath} (rebuild the report with: ${commandLine('report', recordPath)})`);
    return false;
  }
}

/** --history DIR: the run's record also goes to DIR/<profile>/<commit>-<time>.json (never over a file); false when it could not. */
async function appendHistory(history: string | null, record: RunRecord, recordPath: string): Promise<boolean> {
  if (!history) return true;
  try {
    console.log(appendedLine(await appendToHistory(history, record)));
    return true;
  } catch (error) {
    if (!(error instanceof FileWriteError)) throw error;
    console.error(`\nerror: ${error.message}; the run record is at ${recordPath} (not in the history)`);
    return false;
  }
}

/** What decides perf's exit code: the run's own failures, the verdicts, and whether a baseline was required. */
export interface PerfEnding {
  /** A scenario failed, or an output (record where asked, report, history) was not written. */
  readonly failed: boolean;
  readonly comparison: Pick<Comparison, 'exitCode'> | null;
  readonly requireBaseline: boolean;
}

/** The exit code: the worst of the run's failures (1) and the verdicts' code; no baseline is 3 when one is required (CI). */
export function perfExitCode({ failed, comparison, requireBaseline }: PerfEnding): number {
  const scenarioCode = failed ? EXIT.regression : EXIT.pass;
  if (comparison) return Math.max(scenarioCode, comparison.exitCode);
  // CI sets PERF_REQUIRE_BASELINE=1: a run that compared nothing must not pass there.
  return requireBaseline ? Math.max(scenarioCode, EXIT.noBaseline) : scenarioCode;
}

/**
 * The write phase of `perf`: the run record (kept in the temp folder when it cannot go where
 * asked), the console report, the exports, charts and history; then the exit code.
 */
export async function writePerf(
  plan: Pick<PerfPlan, 'exports' | 'jobSummary' | 'verbose' | 'history' | 'requireBaseline' | 'color'>,
  judged: Judged,
): Promise<number> {
  const { writeRecordSafely } = await import('../../runner/perf.js');
  const { record, comparison, baselinePath } = judged;
  const written = await writeRecordSafely(judged.recordPath, record);
  const recordPath = written.path;
  if (written.fallbackFrom)
    console.error(`\nerror: could not write the run record to ${written.fallbackFrom} (${written.reason}); it was kept at ${recordPath}`);
  const input = { record, recordPath, comparison };
  // By default one screen; --verbose every table (the HTML report and the run record keep them all).
  const { consoleExporter, verboseConsoleExporter } = await import('../../report/console.js');
  const exporter = plan.verbose ? verboseConsoleExporter : consoleExporter;
  console.log(`\n${await exporter.render(input, { color: plan.color })}`);
  const reportWritten = await writeReport(plan, input);
  const historyWritten = await appendHistory(plan.history, record, recordPath);
  const failed = record.errors.length > 0 || written.fallbackFrom !== null || !reportWritten || !historyWritten;
  if (!comparison) console.log(`\n${noBaselineMessage(record, baselinePath, recordPath)}`);
  const code = perfExitCode({ failed, comparison, requireBaseline: plan.requireBaseline });
  // The verdict line says the exit code; said here when there is none, or it differs (a file not written).
  if (code !== comparison?.exitCode) console.log(`Exit ${code}.`);
  return code;
}
