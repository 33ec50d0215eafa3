import { outputStream } from '../../base/regular-file.js';
import type { FfmpegPaths } from '../../data/kinetics/ffmpeg.js';
import { HistoryRefusedError, historyRefusal } from '../../history/store.js';
import { exportOutputs, exportTargets } from '../../report/exporters.js';
import { checkJobSummary, checkOutputs, checkWritableDir } from '../../results/output-guard.js';
import { processCountProblem } from '../../results/process-verdict.js';
import type { SkippedScenario } from '../../results/schema.js';
import { skippedLine } from '../../results/schema.js';
import { besideRecord, RESULTS_DIR } from '../../results/storage.js';
import { type Question, type RunConfig, sourceContext } from '../../run-config.js';
import { gitState } from '../../runner/git.js';
import type { ScenarioFile } from '../../runner/scenarios.js';
import { BROWSER_BACKENDS } from '../../backend/browser-backends.js';
import type { BrowserLaunch } from '../../runner/browser.js';
import { checkBaselinesReadable } from '../baselines-check.js';
import type { BackendArgs, BrowserArgs, CompareArgs, DataArgs } from '../command-spec.js';
import { UsageError } from '../usage-error.js';

/** What `perf` is asked. */
export type PerfArgs = {
  readonly command: 'perf';
  readonly out: string | null;
  readonly scenarios: readonly string[];
  readonly processes: number;
  /** --history DIR: also append the run record to DIR/<profile>/ (null: not). */
  readonly history: string | null;
  /** A question asked with flags (--shape, --image-folder) instead of perf files; null for none. */
  readonly question: Question | null;
  /** The folder of the project's perf files (default perf/). */
  readonly dir: string | null;
  /** --verbose: every table on the console, and vitest's per-test lines while it runs. */
  readonly verbose: boolean;
  /** Where ffmpeg and ffprobe are (FFMPEG_PATH / FFPROBE_PATH). */
  readonly videoTools: FfmpegPaths;
} & BrowserArgs &
  DataArgs &
  BackendArgs &
  CompareArgs;

/**
 * One `perf` run as the later phases need it (measure, judge, write): every input read and
 * checked, every output checked writable, no flag left to read.
 */
export interface PerfPlan {
  /** The perf files to run (those asked, less the skipped) and the RunConfig they run with. */
  readonly files: readonly ScenarioFile[];
  readonly config: RunConfig;
  /** Scenarios not run for a missing tool (preflight.ts): said in the record. */
  readonly skipped: readonly SkippedScenario[];
  readonly processes: number;
  readonly verbose: boolean;
  /** The browser whose page runs the files (--browser), found and checked; null: Node. */
  readonly browser: BrowserLaunch | null;
  /** Where the run record goes; null: results/<time>-<profile>.json, named once the profile is known. */
  readonly out: string | null;
  /** The --baseline file (null: the profile's own in `dir`), checked readable. */
  readonly baseline: { readonly file: string | null; readonly dir: string };
  readonly judging: { readonly allowProfileMismatch: boolean; readonly gateTiming: boolean };
  /** A run with no baseline exits 3 (PERF_REQUIRE_BASELINE=1). */
  readonly requireBaseline: boolean;
  /** Each export format's file, by flag name (null: not asked; the formats beside the record always). */
  readonly exports: Readonly<Record<string, string | null>>;
  readonly jobSummary: string | null;
  /** --history DIR, checked writable and the run's commit known; null: not asked. */
  readonly history: string | null;
  /** Colours on the console: stdout is a terminal. */
  readonly color: boolean;
}

/** The question's data, read up front; a folder it cannot use is the user's to fix (exit 2). */
async function readQuestion(question: Question): Promise<Record<string, string>> {
  const { describeQuestion } = await import('../../runner/questions.js');
  const { RunInputError } = await import('../../runner/perf.js');
  const { ImageFolderError } = await import('../../data/image-folder/index.js');
  try {
    return await describeQuestion(question);
  } catch (error) {
    if (error instanceof ImageFolderError) throw new RunInputError(error.message);
    throw error;
  }
}

/** Every output the run will write, and the baselines it will read, checked now, before the device starts. */
async function checkRunOutputs(args: PerfArgs): Promise<void> {
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
}

/**
 * The plan phase of `perf`: reads and checks everything the user can get wrong before a device
 * starts (a UsageError, RunInputError or output refusal: exit 2), and prints the skipped scenarios.
 * `checkOutputs: false` (the measure host, whose records go where its parent says) leaves the
 * output folders alone.
 */
export async function planPerf(args: PerfArgs, { checkOutputs = true }: { readonly checkOutputs?: boolean } = {}): Promise<PerfPlan> {
  const { checkBackendChoice, RunInputError, scenarioFiles } = await import('../../runner/perf.js');
  const { browserScenarioDir } = await import('../../runner/scenarios.js');
  const { questionFile } = await import('../../runner/questions.js');
  const tooFew = processCountProblem(args.processes);
  if (tooFew) throw new UsageError(tooFew);
  if (args.question && (args.scenarios.length > 0 || args.dir)) {
    throw new UsageError(`--${args.question.kind} asks its own question: it does not go with --scenario or --dir`);
  }
  // The record is a file: the HTML report and the charts are written beside it, and later commands read it.
  if (args.out && outputStream(args.out)) {
    throw new UsageError(
      `--out ${args.out}: the run record must be a file (the HTML report and charts go beside it); name a file, and use --json - for the verdicts on stdout`,
    );
  }
  const browser = await browserOf(args);
  const browserDir = browser ? browserScenarioDir() : undefined;
  const asked = args.question ? [questionFile(args.question)] : scenarioFiles(args.scenarios, args.dir ?? browserDir, undefined, args.dir ? '--dir' : null);
  checkBackendChoice(args.backend);
  // A scenario whose tool is missing (ffmpeg) is skipped with its reason unless named (preflight.ts); the rest run.
  const { preflightScenarios } = await import('../../runner/preflight.js');
  const { datasets, files, skipped } = args.question
    ? { datasets: await readQuestion(args.question), files: asked, skipped: [] }
    : await preflightScenarios(args.data, asked, sourceContext(args), args.scenarios.length > 0);
  for (const s of skipped) console.log(`[gpu-transfer-perf] ${skippedLine(s)}`);
  if (files.length === 0)
    throw new RunInputError(
      skipped.length > 0
        ? `nothing to measure: every scenario was skipped (${skipped.map(skippedLine).join('; ')})`
        : `nothing to measure: ${args.dir ? `--dir ${args.dir}` : `${browserDir ?? 'perf'}/`} holds no perf files ([NN-]name.perf.ts or [NN-]name.spec.ts); name the folder that holds them`,
    );
  // The measure host writes each record where its parent asks: it has no outputs of its own to check (or make).
  if (checkOutputs) await checkRunOutputs(args);
  return {
    files,
    // A run with skipped scenarios lists the files it ran; `skipped` says why the others are absent.
    config: { ...perfRunConfig(args, files, datasets), ...(skipped.length > 0 ? { selection: files.map((f) => f.path) } : {}) },
    skipped,
    processes: args.processes,
    verbose: args.verbose,
    browser,
    out: args.out,
    baseline: { file: args.baseline, dir: args.baselines },
    judging: { allowProfileMismatch: args.allowProfileMismatch, gateTiming: args.gateTiming },
    requireBaseline: args.requireBaseline,
    exports: args.exports,
    jobSummary: args.jobSummary,
    history: args.history,
    color: process.stdout.isTTY === true,
  };
}

/**
 * The browser --browser names, found and its version read before anything starts; its backend
 * one a page runs. Without --browser, webgl (a browser's backend) and --browser-path are refused.
 * perf's and ab's check (ab has no question).
 */
export async function browserOf(args: BrowserArgs & Pick<PerfArgs, 'backend'> & { readonly question?: Question | null }): Promise<BrowserLaunch | null> {
  if (args.browser === null) {
    if (args.browserPath?.from === '--browser-path') throw new UsageError('--browser-path goes with --browser chromium');
    if (args.backend === 'webgl') throw new UsageError('--backend webgl runs in a browser only: add --browser chromium');
    if (args.browserTimeout !== null) throw new UsageError('--browser-timeout goes with --browser chromium');
    return null;
  }
  if (args.question) throw new UsageError(`--${args.question.kind} runs in Node only: drop --browser`);
  if (!['auto', ...BROWSER_BACKENDS].includes(args.backend)) {
    throw new UsageError(`--backend ${args.backend} does not run in a browser: --browser takes --backend ${BROWSER_BACKENDS.join(' or ')}`);
  }
  const { findBrowser, loadBrowserProvider, BrowserSetupError } = await import('../../runner/browser.js');
  const { RunInputError } = await import('../../runner/perf.js');
  try {
    const browser = findBrowser(args.browser, args.browserPath);
    await loadBrowserProvider();
    return args.browserTimeout === null ? browser : { ...browser, timeoutS: args.browserTimeout };
  } catch (error) {
    if (error instanceof BrowserSetupError) throw new RunInputError(error.message);
    throw error;
  }
}

/**
 * The RunConfig of a perf command line (the perf command's and the measure host's): its
 * backend, scale and data; the selection when scenarios or a question were named.
 */
export function perfRunConfig(args: PerfArgs, files: ReadonlyArray<{ readonly path: string }>, datasets: Record<string, string>): RunConfig {
  return {
    backend: args.backend,
    requireBackend: args.requireBackend,
    scale: args.scale,
    data: args.data,
    selection: args.scenarios.length > 0 || args.question ? files.map((f) => f.path) : null,
    datasets,
    ...(args.question ? { question: args.question } : {}),
    videoTools: args.videoTools,
  };
}
