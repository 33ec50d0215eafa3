/**
 * The tests a run has started and not finished, as the reporter sees them (onTestCaseReady,
 * onTestCaseResult): in a browser the Node host's only view of where a page is. A page that
 * never settles is named by its test (runner/browser-process.ts), not as a browser that closed.
 * One run at a time in a CLI process, so one list, kept here for the process watch to read.
 */

/** A test the page started and has not reported a result for. */
export interface RunningTest {
  /** 'perf/browser/06-speedup.perf.ts > speedup > measures ...': the file and the test's full name. */
  readonly name: string;
  /** Its own timeout (vitest's testTimeout, or the one it was given), ms. */
  readonly timeoutMs: number;
  /** When it started (performance.now(), ms). */
  readonly startedAt: number;
}

const running = new Map<string, RunningTest>();

/** The tests running now, the longest-running first. */
export function runningTests(): RunningTest[] {
  return [...running.values()].sort((a, b) => a.startedAt - b.startedAt);
}

/** A test started (`id`: vitest's task id). */
export function testStarted(id: string, test: Omit<RunningTest, 'startedAt'>, at = performance.now()): void {
  running.set(id, { ...test, startedAt: at });
}

/** A test gave its result. */
export function testFinished(id: string): void {
  running.delete(id);
}

/** A new run: nothing runs yet. */
export function runStarted(): void {
  running.clear();
}
