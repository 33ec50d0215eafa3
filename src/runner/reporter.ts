import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import { assembleRunRecord, type CollectedTest } from '../results/assemble.js';
import type { RunProfile, RunRecord } from '../results/schema.js';
import type { RunConfig } from '../run-config.js';
import { cpuTicks, runDiagnostics } from './diagnostics.js';
import { gitState } from './git.js';
import { scenarioOfPath } from './scenarios.js';

function collect(modules: ReadonlyArray<TestModule>): CollectedTest[] {
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
        perf: test.meta().perf,
      });
    }
    // A file that failed to load, or a beforeAll/afterAll that threw (whose tests then show as
    // skipped), leaves its errors on the module or the suite, not on any test.
    const hookErrors = [
      ...module.errors().map((e) => ({ where: '(file)', message: withCause(e) })),
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

  /** `config`: the run's; a session sets the next run's before it starts. */
  constructor(public config: RunConfig) {}

  /** A session runs more than once: each run's record and diagnostics are its own. */
  onTestRunStart(): void {
    this.record = null;
    this.unhandledErrors = [];
    this.fileErrors = [];
    this.start = { ticks: cpuTicks(), at: performance.now() };
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    this.unhandledErrors = unhandledErrors.map((e) => e.message);
    // A file that failed to load or whose beforeAll/afterAll threw: its tests never ran (and may show as skipped).
    this.fileErrors = modules.flatMap((m) =>
      [...m.errors(), ...[...m.children.allSuites()].flatMap((s) => s.errors())].map((e) => `${scenarioOfPath(m.moduleId)}: ${withCause(e)}`),
    );
    this.record = assembleRunRecord(collect(modules), {
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
    });
  }
}
