import { EXIT } from '../results/compare.js';
import { processCountProblem } from '../results/process-verdict.js';
import { noBaselineMessage } from '../results/baseline.js';
import { consoleExporter, verboseConsoleExporter } from '../report/console.js';
import { writeExports } from '../report/write-exports.js';
import { exportOutputs, exportTargets } from '../report/exporters.js';
import { writeCharts } from '../report/charts.js';
import { ImageFolderError } from '../data/image-folder/index.js';
import { type Question, sourceContext } from '../run-config.js';
import { describeQuestion, questionFile } from '../runner/questions.js';
import { checkBackendChoice, describeDatasets, RunInputError, runPerfSuite, scenarioFiles } from '../runner/perf.js';
import { besideRecord, FileWriteError, RESULTS_DIR } from '../results/storage.js';
import { appendedLine, appendToHistory, HistoryRefusedError, historyRefusal } from '../history/store.js';
import { gitState } from '../runner/git.js';
import { perfRunConfig, UsageError, type CommandLine } from './args.js';
import { checkBaselinesReadable } from './baselines-check.js';
import { checkJobSummary, checkOutputs, checkWritableDir } from '../results/output-guard.js';
import { commandLine } from '../base/commands.js';

type PerfArgs = Extract<CommandLine, { command: 'perf' }>;

/** The question's data, read up front; a folder it cannot use is the user's to fix (exit 2). */
async function readQuestion(question: Question): Promise<Record<string, string>> {
  try {
    return await describeQuestion(question);
  } catch (error) {
    if (error instanceof ImageFolderError) throw new RunInputError(error.message);
    throw error;
  }
}

/**
 * `npm run perf`: runs the selected perf/ specs and timed scenarios, compares the run with its
 * profile's baseline (when there is one), writes the run record, prints the report.
 */
export async function perfCommand(args: PerfArgs): Promise<number> {
  // Everything the user can get wrong is checked before a device starts.
  const tooFew = processCountProblem(args.processes);
  if (tooFew) throw new UsageError(tooFew);
  if (args.question && (args.scenarios.length > 0 || args.dir)) {
    throw new UsageError(`--${args.question.kind} asks its own question: it does not go with --scenario or --dir`);
  }
  const files = args.question ? [questionFile(args.question)] : scenarioFiles(args.scenarios, args.dir ?? undefined);
  checkBackendChoice(args.backend);
  const { data } = args;
  const datasets = args.question ? await readQuestion(args.question) : await describeDatasets(data, files, sourceContext(args));
  // Every file this run will write or read at the end is checked now, before the device starts.
  const out = args.out;
  if (out) {
    const beside = (extension: string, kind: string) => ({ path: besideRecord(out, extension), flag: `the ${kind} beside --out` });
    await checkOutputs([{ path: out, kind: 'run record', flag: '--out' }, ...exportOutputs(exportTargets('perf', args.exports, beside))], args);
  } else {
    await checkWritableDir(RESULTS_DIR, 'the run record');
    await checkOutputs(exportOutputs(exportTargets('perf', args.exports, null)), args);
  }
  await checkJobSummary(args.jobSummary, args);
  if (args.history) {
    await checkWritableDir(args.history, '--history');
    const refusal = historyRefusal({ git: gitState() });
    if (refusal) throw new HistoryRefusedError(`--history ${args.history}: ${refusal}, or drop --history`);
  }
  await checkBaselinesReadable(args.baseline, args.scale, args.baselines);
  const config = perfRunConfig(args, files, datasets);

  const outcome = await runPerfSuite(files, config, args);
  if (!outcome) {
    console.error('\nNo run record: no scenario reached a backend (see the errors above).');
    return EXIT.regression;
  }
  if (outcome.fallbackFrom) {
    console.error(`\nerror: could not write the run record to ${outcome.fallbackFrom} (${outcome.writeError}); it was kept at ${outcome.recordPath}`);
  }
  const input = { record: outcome.record, recordPath: outcome.recordPath, comparison: outcome.comparison };
  // By default one screen; --verbose every table (the HTML report and the run record keep them all).
  const exporter = args.verbose ? verboseConsoleExporter : consoleExporter;
  console.log(`\n${await exporter.render(input, { color: process.stdout.isTTY === true })}`);
  const html = besideRecord(outcome.recordPath, '.html');
  let writeFailed = false;
  try {
    const beside = (extension: string) => ({ path: besideRecord(outcome.recordPath, extension), flag: 'beside the run record' });
    await writeExports(input, 'perf', exportTargets('perf', args.exports, beside), args.jobSummary);
    const charts = await writeCharts(outcome.record, outcome.recordPath);
    const chartList = args.verbose && charts.written.length > 0 ? `; charts: ${charts.written.join(', ')}` : '';
    console.log(`Report: ${html}${args.verbose ? chartList : ' (every table and chart; --verbose prints the tables here)'}`);
    if (charts.unavailable) console.log(`note: ${charts.unavailable}`);
    for (const path of charts.skipped) console.log(`note: ${path} holds a file that is not a chart; it was left alone (that chart is in the HTML report).`);
  } catch (error) {
    // Disk full or the folder gone after the run: the record is written, say where, and fail.
    if (!(error instanceof FileWriteError)) throw error;
    console.error(
      `\nerror: ${error.message}; the run record is at ${outcome.recordPath} (rebuild the report with: ${commandLine('report', outcome.recordPath)})`,
    );
    writeFailed = true;
  }

  // --history DIR: the run's record also goes to DIR/<profile>/<commit>-<time>.json (never over a file).
  let historyFailed = false;
  if (args.history) {
    try {
      const appended = await appendToHistory(args.history, outcome.record);
      console.log(appendedLine(appended));
    } catch (error) {
      if (!(error instanceof FileWriteError)) throw error;
      console.error(`\nerror: ${error.message}; the run record is at ${outcome.recordPath} (not in the history)`);
      historyFailed = true;
    }
  }
  const scenarioCode = outcome.record.errors.length > 0 || outcome.fallbackFrom || writeFailed || historyFailed ? EXIT.regression : EXIT.pass;
  if (!outcome.comparison) console.log(`\n${noBaselineMessage(outcome.record, outcome.baselinePath, outcome.recordPath)}`);
  const code = outcome.comparison
    ? Math.max(scenarioCode, outcome.comparison.exitCode)
    : // CI sets PERF_REQUIRE_BASELINE=1: a run that compared nothing must not pass there.
      args.requireBaseline
      ? Math.max(scenarioCode, EXIT.noBaseline)
      : scenarioCode;
  // The verdict line says the exit code; said here when there is none, or it differs (a file not written).
  if (code !== outcome.comparison?.exitCode) console.log(`Exit ${code}.`);
  return code;
}
