/**
 * One measuring process in a browser, watched: a page can freeze (a loop that never yields), and
 * then no test timeout fires inside it, so the Node side gives the process a deadline of its own
 * and names a crash (the browser or its page gone) as the cause of a process without a record.
 */
import { descendantWithArgument } from '../base/process-tree.js';
import type { RunRecord } from '../results/schema.js';
import type { BrowserLaunch } from './browser.js';
import { DEFAULT_BROWSER_TIMEOUT_S } from './browser-timeout.js';
import { ProcessLostError } from './process-lost.js';
import { type RunningTest, runningTests } from './running-tests.js';
import type { ScenarioSession } from './run-scenarios.js';

/** The part of a scenario session this needs: one run, and what went wrong outside the tests. */
export type WatchedSession = Pick<ScenarioSession, 'run' | 'unhandledErrors'>;

/**
 * How long past its own timeout a test may go unreported before the page counts as hung: the
 * page's own timer reports it first when the page runs at all ("Test timed out in N ms").
 */
export const TEST_TIMEOUT_GRACE_S = 10;

/** How often the watch looks at the running tests, ms. */
const WATCH_MS = 1000;

const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * Why a process counts as hung now, in words, or null: a test still running past its own timeout
 * (plus the grace: the page did not report it, so it is not running its timers), or the process
 * past --browser-timeout. Whichever comes first; the test is named either way.
 */
export function hungReason(tests: readonly RunningTest[], elapsedMs: number, timeoutS: number, now: number): string | null {
  const test = tests[0];
  const overdue = tests.find((t) => now - t.startedAt > t.timeoutMs + TEST_TIMEOUT_GRACE_S * 1000);
  if (overdue) {
    return `the test ${overdue.name} never settled: no result ${seconds(now - overdue.startedAt)} s after it started, past its timeout of ${seconds(overdue.timeoutMs)} s (the page did not report it), so the page hung`;
  }
  if (elapsedMs < timeoutS * 1000) return null;
  const own = test && test.timeoutMs > 0 ? `; its own timeout is ${seconds(test.timeoutMs)} s` : '';
  return test
    ? `the test ${test.name} never settled: no result after ${timeoutS} s (--browser-timeout${own}), ${seconds(now - test.startedAt)} s in that test, so the page hung`
    : `no result after ${timeoutS} s (--browser-timeout): the page hung`;
}

/** The test a browser that closed was running, in words ('' when none was running). */
export function closedDuring(tests: readonly RunningTest[], now: number): string {
  const test = tests[0];
  return test ? ` during the test ${test.name}, ${seconds(now - test.startedAt)} s after it started and never settled` : '';
}

/**
 * Runs one browser process: its record, or a ProcessLostError when the page gave no result within
 * the deadline (a test past its own timeout, or the process past --browser-timeout, whichever
 * comes first: the test named) or the run ended with no record and no browser left (it crashed or
 * was killed). Null, as in Node, when it ended without a record while its browser lives (no scenario ran).
 * `label`: which process, e.g. 'process 2 of 5'. The caller closes the session (and so the browser).
 */
export async function runBrowserProcess(
  session: WatchedSession,
  browser: BrowserLaunch,
  label: string,
  browserAlive: () => boolean = playwrightBrowserAlive,
  running: () => readonly RunningTest[] = runningTests,
): Promise<RunRecord | null> {
  const timeoutS = browser.timeoutS ?? DEFAULT_BROWSER_TIMEOUT_S;
  const where = `${label} in Chromium ${browser.major}`;
  const lost = 'its values are lost and the run is not written (a run is whole or not at all)';
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<{ hung: string }>((done) => {
    timer = setInterval(() => {
      const now = performance.now();
      const hung = hungReason(running(), now - started, timeoutS, now);
      if (hung) done({ hung });
    }, WATCH_MS);
  });
  try {
    const run = session.run();
    // A hung run settles, if ever, after the deadline and the session's close: nothing waits for it then.
    run.catch(() => undefined);
    const outcome = await Promise.race([run, deadline]);
    if (outcome !== null && 'hung' in outcome) {
      throw new ProcessLostError(`${where}: ${outcome.hung}; the browser was stopped, ${lost}`);
    }
    if (outcome === null && !browserAlive()) {
      const first = session.unhandledErrors()[0]?.split('\n')[0];
      throw new ProcessLostError(
        `${where}: the browser closed before the run finished${closedDuring(running(), performance.now())} (it crashed or was killed${first ? `; the run said: ${first}` : ''}); ${lost}`,
      );
    }
    return outcome;
  } finally {
    clearInterval(timer);
  }
}

/** Whether the browser vitest's Playwright provider launched still runs: a descendant with Playwright's launch flag. */
const playwrightBrowserAlive = (): boolean => descendantWithArgument('--remote-debugging-pipe');
