import { relative } from 'node:path';
import type { UserConsoleLog } from 'vitest';
import type { Reporter, SerializedError, TestCase, TestModule, TestSpecification } from 'vitest/node';
import { Progress, type ProgressStream } from '../measure/progress.js';

/** Failures that get a line of their own while the run goes on; the report after the run lists every error. */
const FAILURE_LINES = 10;

export interface RunProgressOptions {
  /** Paths are shown relative to it (the project root). */
  readonly root: string;
  readonly stdout?: ProgressStream;
  readonly stderr?: ProgressStream;
  /** Without a terminal, the least time between two progress lines; default 30 s. */
  readonly plainEveryMs?: number;
}

/**
 * What a default `gtp perf` shows while it runs, instead of vitest's per-test lines (those are
 * `--verbose`): one progress line over the perf files (redrawn in place on a terminal, else a
 * line at most every 30 s and the last), what the perf files print themselves (the backend
 * line, notes), and one line per failed test as it fails. The figures come after the run, from
 * the run record.
 */
export class RunProgressReporter implements Reporter {
  private progress: Progress | null = null;
  private total = 0;
  private done = 0;
  private failures = 0;
  private readonly stdout: ProgressStream;
  private readonly stderr: ProgressStream;

  constructor(private readonly options: RunProgressOptions) {
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.total = specifications.length;
    this.progress = new Progress({
      label: 'perf files',
      total: this.total,
      unit: 'files',
      eta: false,
      stream: this.stderr,
      plainEveryMs: this.options.plainEveryMs ?? 30_000,
    });
  }

  onTestModuleStart(module: TestModule): void {
    this.progress?.update(this.done, this.name(module));
  }

  onTestModuleEnd(module: TestModule): void {
    this.done += 1;
    // The last file's end is drawn once, by finish().
    if (this.done < this.total) this.progress?.update(this.done, `${this.name(module)} done`);
  }

  onTestCaseResult(test: TestCase): void {
    const result = test.result();
    if (result.state !== 'failed') return;
    this.failures += 1;
    // The first FAILURE_LINES failures get a line each; the next one says the rest come after the run.
    if (this.failures === FAILURE_LINES + 1) this.line(this.stdout, '  (further failures: listed after the run)');
    if (this.failures > FAILURE_LINES) return;
    const message = result.errors?.[0]?.message.split('\n')[0] ?? '';
    this.line(this.stdout, `✗ ${this.name(test.module)} > ${test.fullName}: ${message}`);
  }

  onUserConsoleLog(log: UserConsoleLog): void {
    this.line(log.type === 'stderr' ? this.stderr : this.stdout, log.content.trimEnd());
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const e of unhandledErrors.slice(0, FAILURE_LINES)) this.line(this.stdout, `✗ unhandled error: ${e.message.split('\n')[0]}`);
    const status = this.failures === 0 ? 'no test failed' : `${this.failures} test(s) failed`;
    this.progress?.update(this.done, status);
    this.progress?.finish(status);
  }

  private name(module: TestModule): string {
    return relative(this.options.root, module.moduleId);
  }

  private line(stream: ProgressStream, text: string): void {
    const write = () => stream.write(`${text}\n`);
    if (this.progress) this.progress.around(write);
    else write();
  }
}
