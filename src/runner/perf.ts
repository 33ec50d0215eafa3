import { tensorflowSetup } from '../base/commands.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fsErrorCause } from '../base/regular-file.js';
import { isTensorflowInstalled } from '../backend/tensorflow-installed.js';
import type { BackendChoice } from '../backend/types.js';
import type { AnyDatasetSource, SourceContext } from '../data/source.js';
import { DATASET_SOURCES, sourcesOf } from '../data/sources.js';
import { combineProcessRecords } from '../results/combine.js';
import type { RunRecord } from '../results/schema.js';
import { FileWriteError, writeJsonAtomic } from '../results/storage.js';
import { canonicalData, type DataSources, type RunConfig } from '../run-config.js';
import type { BrowserLaunch } from './browser.js';
import { measureOneLaunch } from './host-browser.js';
import type { Remeasure } from './remeasure.js';
import { DEFAULT_SCENARIO_DIR, listScenarios, selectScenarios, type ScenarioFile } from './scenarios.js';

import { RunInputError } from './run-input-error.js';

/** Input the user must fix (unknown scenario, bad data folder, bad --out): exit 2, nothing started. */
export { RunInputError };

/** What to do when perf/ is not here, said by a command that takes --dir (perf). */
const PERF_DIR_HINT = "run gtp perf from your project's root, or name the folder with --dir DIR";

/**
 * The scenario files of `dir` (default perf/) for --scenario values; an unknown value or a missing
 * or unreadable folder is the user's to fix, said in one line naming `flag` (the flag that named
 * `dir`, '--dir'; null: the default folder) and the cause (a link that loops: ELOOP, in words).
 * `hint`: what to do when the folder is missing, as the calling command can do it (ab, bisect and
 * calibrate take no --dir: they say so).
 */
export function scenarioFiles(
  wanted: readonly string[],
  dir: string = DEFAULT_SCENARIO_DIR,
  hint: string = PERF_DIR_HINT,
  flag: string | null = null,
): ScenarioFile[] {
  try {
    return selectScenarios(listScenarios(process.cwd(), dir), wanted);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const named = flag ? `${flag} ${dir}` : dir;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new RunInputError(`${named}: no such folder of perf files here (${process.cwd()}); ${hint}`);
    }
    // ELOOP, EACCES: the folder is there but cannot be listed; nothing was run.
    if (typeof code === 'string')
      throw new RunInputError(`${named}: cannot list this folder of perf files (${fsErrorCause(error)}); name a folder that can be read`);
    throw new RunInputError((error as Error).message);
  }
}

/** The names of the data sets a scenario reads (the registered sources that name it, else MNIST's). */
export function datasetsOf(scenario: ScenarioFile, sources: readonly AnyDatasetSource[] = DATASET_SOURCES): string[] {
  return sourcesOf(scenario.id, sources).map((s) => s.name);
}

/**
 * Reads each data source the selected scenarios need once, before any device starts, so bad
 * data exits 2 at once (what a reader rejects is the user's input to fix, named by the reader);
 * says what each holds, by data set (stored in the run record).
 */
export async function describeDatasets(
  data: DataSources,
  files: readonly ScenarioFile[],
  context: SourceContext,
  sources: readonly AnyDatasetSource[] = DATASET_SOURCES,
): Promise<Record<string, string>> {
  const needed = new Set(files.flatMap((f) => datasetsOf(f, sources)));
  // A committed fixture named by its path is the embedded data, described (and so compared) as such.
  const given = canonicalData(data, process.cwd(), sources);
  const ids = files.map((f) => f.id);
  const out: Record<string, string> = {};
  for (const source of sources.filter((s) => needed.has(s.name))) {
    const named = given[source.name] ?? null;
    try {
      // A committed fixture is read too (a checkout without it fails now), and named as the default.
      const read = named ?? source.fixture;
      const described = read === null ? null : await source.describe(read, ids, context);
      out[source.name] = named === null ? source.defaultDescription : described!;
    } catch (error) {
      // The cause says what failed: a missing tool (MissingToolError) may skip the scenario (preflight.ts).
      throw new RunInputError((error as Error).message, { cause: error });
    }
  }
  return out;
}

/** A backend asked for by name that cannot be installed-or-found is bad usage, found before anything starts. */
export function checkBackendChoice(choice: BackendChoice): void {
  if (choice === 'tensorflow' && !isTensorflowInstalled()) {
    throw new RunInputError(
      `--backend tensorflow: neither @tensorflow/tfjs-node nor @tensorflow/tfjs-node-gpu is installed with its addon: ${tensorflowSetup()} installs @tensorflow/tfjs-node 4.22.0 on TensorFlow 2.21.0's C library (pip's tensorflow-cpu wheel)`,
    );
  }
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/**
 * Writes the run record; if that fails after all (disk full, folder removed meanwhile), keeps
 * it in a new folder of its own in the temp folder instead, so a long run is never lost and
 * no existing file is replaced there. Returns where it went.
 */
export async function writeRecordSafely(path: string, record: RunRecord): Promise<{ path: string; fallbackFrom: string | null; reason: string | null }> {
  try {
    await writeJsonAtomic(path, record);
    return { path, fallbackFrom: null, reason: null };
  } catch (error) {
    const fallback = join(await mkdtemp(join(tmpdir(), 'gtp-kept-')), basename(path));
    await writeJsonAtomic(fallback, record);
    return { path: fallback, fallbackFrom: path, reason: error instanceof FileWriteError ? error.code : errorCode(error) };
  }
}

/**
 * Runs the scenarios in `processes` separate test processes, strictly one after another with
 * the same configuration, and combines their records (one value per process per metric).
 */
export async function measureInProcesses(
  files: readonly ScenarioFile[],
  config: RunConfig,
  processes: number,
  verbose = false,
  browser: BrowserLaunch | null = null,
): Promise<RunRecord | null> {
  const records: RunRecord[] = [];
  // Loaded here, not at the top: the plan's checks above (scenarioFiles, checkBackendChoice) run without vitest or tfjs.
  const { openScenarioSession } = await import('./run-scenarios.js');
  const options = { quiet: processes > 1, verbose, browser };
  // One vitest for all K; each run is a new forked process with its own device (openScenarioSession).
  // In a browser one process is one launch: a new Chromium each, on the session's one Vite server.
  const session = await openScenarioSession(files, config, options);
  try {
    for (let k = 0; k < processes; k++) {
      if (processes > 1) console.log(`[gpu-transfer-perf] process ${k + 1} of ${processes}: ${files.map((f) => f.id).join(', ')}`);
      const label = `process ${k + 1} of ${processes}`;
      // In a browser one process is one launch, closed when its record is taken (host-browser.ts).
      const record = browser ? await measureOneLaunch(session, browser, label) : await session.run();
      if (!record) {
        // No test recorded anything: what stopped the files, said here (the progress line shows no failed test then).
        for (const message of [...session.fileErrors(), ...session.unhandledErrors()]) console.error(`error: ${message.split('\n')[0]}`);
        return null;
      }
      records.push(record);
    }
  } finally {
    await session.close();
  }
  return combineProcessRecords(records);
}

/**
 * The second measurement a first judgement asked for (remeasure.ts), among the files of this run
 * (its perf folder, or the question's file): K more processes.
 */
export function remeasure(plan: Remeasure, all: readonly ScenarioFile[], config: RunConfig, browser: BrowserLaunch | null = null): Promise<RunRecord | null> {
  const files = all.filter((f) => plan.scenarios.includes(f.id));
  return measureInProcesses(files, { ...config, selection: files.map((f) => f.path) }, plan.processes, false, browser);
}

/**
 * Runs `work` (what follows a finished measurement: finding the baseline, the second look); if
 * it throws, writes `record` first (writeRecordSafely) and rethrows with where the record is, so
 * a failure after measuring never loses the measured run.
 */
export async function keepingRecord<T>(recordPath: string, record: RunRecord, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const kept = await writeRecordSafely(recordPath, record);
    if (error instanceof Error) error.message = `${error.message}; the run record was kept at ${kept.path}`;
    throw error;
  }
}
