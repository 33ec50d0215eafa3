import { relative } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, Vitest } from 'vitest/node';
import { assembleRunRecord, type CollectedTest } from '../results/assemble.js';
import { decodeNonFinite } from '../results/non-finite.js';
import type { RunProfile, RunRecord } from '../results/schema.js';
import type { RunConfig } from '../run-config.js';
import { cpuTicks, runDiagnostics } from './diagnostics.js';
import { gitState } from './git.js';
import { runStarted, testFinished, testStarted } from './running-tests.js';
import { scenarioOfPath } from './scenarios.js';

/** How one file's load error is said (RunRecordReporter.fileErrorMessage): a parse error as file:line:col, else with its cause. */
type FileErrorWords = (error: SerializedError) => string;

function collect(modules: ReadonlyArray<TestModule>, fileError: FileErrorWords = withCause): CollectedTest[] {
  const tests: CollectedTest[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const result = test.result();
      tests.push({
        scenario: scenarioOfPath(module.moduleId),
        name: test.fullName,
        state: result.state,
        errors: result.state === 'failed' ? result.errors.map((e) => e.message) : [],
        note: result.state === 'skipped' ? result.note : undefined,
        // A page's NaN and ±Infinity come marked through its JSON hand-off: restored here (results/non-finite.ts).
        perf: decodeNonFinite(test.meta().perf),
      });
    }
    // A file that failed to load, or a beforeAll/afterAll that threw (whose tests then show as
    // skipped), leaves its errors on the module or the suite, not on any test.
    const hookErrors = [
      ...module.errors().map((e) => ({ where: '(file)', message: fileError(e) })),
      ...[...module.children.allSuites()].flatMap((suite) => suite.errors().map((e) => ({ where: suite.fullName, message: e.message }))),
    ];
    for (const { where, message } of hookErrors)
      tests.push({ scenario: scenarioOfPath(module.moduleId), name: `${where} (setup or teardown)`, state: 'failed', errors: [message] });
    if (hookErrors.length === 0 && module.state() === 'failed' && ![...module.children.allTests('failed')].length) {
      tests.push({ scenario: scenarioOfPath(module.moduleId), name: '(file)', state: 'failed', errors: ['the file failed without a test failing'] });
    }
  }
  return tests;
}

/** An error's message followed by its cause's, where it has one (vitest wraps a file's import failure). */
function withCause(error: SerializedError): string {
  const cause = error.cause as SerializedError | undefined;
  return cause?.message ? `${error.message}: ${cause.name ?? 'Error'}: ${cause.message}` : error.message;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * A parse error of a module in one line, `path:line:col: message`, from the text of a transform
 * failure as Vite's transformer (oxc) gives it ('Transform failed with 1 error: [PARSE_ERROR]
 * Unexpected token ╭─[ perf/x.perf.ts:3:13 ] ...', colours and the code frame around it); null
 * when the text holds none. In Node the file's own error carries it; in a page the file's error
 * only says "Failed to fetch dynamically imported module", and Vite's server logged the cause.
 */
export function parseErrorLine(text: string): string | null {
  const plain = text.replace(ANSI, '');
  if (!/(Transform|Build) failed with/.test(plain)) return null;
  const what = /^\s*\[([A-Z_]+)\]\s*(.+)$/m.exec(plain);
  const where = /\[\s*([^\s\]][^\]]*?):(\d+):(\d+)\s*\]/.exec(plain);
  if (!what || !where) return null;
  return `${where[1]}:${where[2]}:${where[3]}: ${what[2]!.trim()}`;
}

/** Whether a logged text is Vite's report of a module it could not parse (at its dependency scan, at warm-up, or when the page asked for it). */
const isTransformFailureLog = (text: string): boolean =>
  /(Pre-transform error|Internal server error|Failed to run dependency scan)\b/.test(text.replace(ANSI, '')) && parseErrorLine(text) !== null;

/** The test process's resource usage as its last recording file saw it (the largest CPU time). */
function latestUsage(modules: ReadonlyArray<TestModule>): NodeJS.ResourceUsage | null {
  let latest: NodeJS.ResourceUsage | null = null;
  for (const module of modules) {
    const usage = module.meta().resourceUsage;
    if (usage && (!latest || usage.userCPUTime > latest.userCPUTime)) latest = usage;
  }
  return latest;
}

/** The hardware profile the first recording test left on its file's meta. */
function hardwareProfile(modules: ReadonlyArray<TestModule>): RunProfile | null {
  for (const module of modules) {
    const profile = module.meta().hardwareProfile;
    if (profile) return profile;
  }
  return null;
}

/**
 * The run record's `datasets`: what the run read, not what it might have. A question run
 * (`--shape`, `--image-folder`) reads only its own data, described up front with its fingerprint
 * (runner/questions.ts), so that is the whole of it. Other runs list the data sets their test
 * process loaded through useDataset (each file's meta.datasetsRead, merged): the article's
 * scenarios load theirs there, and a user's perf file that makes its own batches lists none,
 * rather than the MNIST it never read. Exported for its test.
 */
export function recordedDatasets(
  config: Pick<RunConfig, 'question' | 'datasets'>,
  readByFiles: ReadonlyArray<Readonly<Record<string, string>> | undefined>,
): Record<string, string> {
  if (config.question) return { ...config.datasets };
  const read: Record<string, string> = {};
  for (const file of readByFiles) Object.assign(read, file);
  // In the order the command line described them, then any it did not (a user's own source).
  const described = Object.keys(config.datasets).filter((name) => Object.hasOwn(read, name));
  const others = Object.keys(read)
    .filter((name) => !Object.hasOwn(config.datasets, name))
    .sort();
  return Object.fromEntries([...described, ...others].map((name) => [name, read[name]!]));
}

/**
 * Turns the metrics that perf tests attached to task.meta into one run record, for the run
 * configuration that the tests read with `inject` (runScenarios provides the same object).
 */
export class RunRecordReporter implements Reporter {
  record: RunRecord | null = null;
  /** The last run's errors outside any test (also in its record, when it has one). */
  unhandledErrors: readonly string[] = [];
  /** The last run's errors of files that failed to load or set up, each as '<scenario>: <message>: <cause>' ('kinetics: Failed to import test file ...: ReferenceError: ...'). */
  fileErrors: readonly string[] = [];
  private start = { ticks: cpuTicks(), at: performance.now() };
  /** What Vite's server could not transform (a page's perf file that does not parse), one line each: kept across the session's runs, since its warm-up transform may log it before the first. */
  private transformFailures: string[] = [];

  /** `config`: the run's; a session sets the next run's before it starts. */
  constructor(public config: RunConfig) {}

  /**
   * Vite's server logs a module it cannot transform with its code frame and stack ('Pre-transform
   * error', 'Internal server error'), through vitest's logger: kept here, for the file's error to
   * say in one line (fileErrorMessage), not printed. Any other log line passes as it was.
   */
  onInit(vitest: Vitest): void {
    const logger = vitest.logger as { error: (...args: unknown[]) => void };
    const error = logger.error.bind(logger);
    logger.error = (...args: unknown[]) => {
      const text = args.map(String).join(' ');
      if (!isTransformFailureLog(text)) return error(...args);
      const line = parseErrorLine(text)!;
      if (!this.transformFailures.includes(line)) this.transformFailures.push(line);
    };
  }

  /**
   * A file's load error in one line: a parse error as `path:line:col: message` (Node's error holds
   * it; a page's says "Failed to fetch dynamically imported module", and Vite logged the cause),
   * else the error with its cause.
   */
  fileErrorMessage(error: SerializedError): string {
    const said = withCause(error);
    const own = parseErrorLine(`${error.message}\n${error.stack ?? ''}`);
    if (own) return own;
    if (/Failed to (fetch dynamically imported module|import test file)/.test(said) && this.transformFailures.length > 0)
      return this.transformFailures.join('; ');
    return said;
  }

  /** A session runs more than once: each run's record and diagnostics are its own. */
  onTestRunStart(): void {
    runStarted();
    this.record = null;
    this.unhandledErrors = [];
    this.fileErrors = [];
    this.start = { ticks: cpuTicks(), at: performance.now() };
  }

  /** Where the page is: a test started (runner/running-tests.ts), for the process watch to name one that never settles. */
  onTestCaseReady(test: TestCase): void {
    // Its own timeout, else the one vitest resolved for it (testTimeout) on its task.
    const timeoutMs = test.options.timeout ?? (test as unknown as { task?: { timeout?: number } }).task?.timeout ?? 0;
    testStarted(test.id, { name: `${relative(process.cwd(), test.module.moduleId)} > ${test.fullName}`, timeoutMs });
  }

  onTestCaseResult(test: TestCase): void {
    testFinished(test.id);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    this.unhandledErrors = unhandledErrors.map((e) => e.message);
    // A file that failed to load or whose beforeAll/afterAll threw: its tests never ran (and may show as skipped).
    this.fileErrors = modules.flatMap((m) =>
      [...m.errors(), ...[...m.children.allSuites()].flatMap((s) => s.errors())].map((e) => `${scenarioOfPath(m.moduleId)}: ${this.fileErrorMessage(e)}`),
    );
    this.record = assembleRunRecord(
      collect(modules, (e) => this.fileErrorMessage(e)),
      {
        createdAt: new Date().toISOString(),
        scale: this.config.scale,
        selection: this.config.selection,
        datasets: recordedDatasets(
          this.config,
          modules.map((m) => m.meta().datasetsRead),
        ),
        git: gitState(),
        profile: hardwareProfile(modules),
        unhandledErrors: unhandledErrors.map((e) => e.message),
        diagnostics: runDiagnostics(latestUsage(modules), this.start),
      },
    );
  }
}
