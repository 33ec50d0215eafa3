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
import type { ScenarioSession } from './run-scenarios.js';

/** The part of a scenario session this needs: one run, and what went wrong outside the tests. */
export type WatchedSession = Pick<ScenarioSession, 'run' | 'unhandledErrors'>;

/**
 * Runs one browser process: its record, or a ProcessLostError when the page gave no result within
 * the deadline or the run ended with no record and no browser left (it crashed or was killed).
 * Null, as in Node, when it ended without a record while its browser lives (no scenario ran).
 * `label`: which process, e.g. 'process 2 of 5'. The caller closes the session (and so the browser).
 */
export async function runBrowserProcess(
  session: WatchedSession,
  browser: BrowserLaunch,
  label: string,
  browserAlive: () => boolean = playwrightBrowserAlive,
): Promise<RunRecord | null> {
  const seconds = browser.timeoutS ?? DEFAULT_BROWSER_TIMEOUT_S;
  const where = `${label} in Chromium ${browser.major}`;
  const lost = 'its values are lost and the run is not written (a run is whole or not at all)';
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'hung'>((done) => {
    timer = setTimeout(() => done('hung'), seconds * 1000);
  });
  try {
    const run = session.run();
    // A hung run settles, if ever, after the deadline and the session's close: nothing waits for it then.
    run.catch(() => undefined);
    const outcome = await Promise.race([run, deadline]);
    if (outcome === 'hung') {
      throw new ProcessLostError(`${where}: no result after ${seconds} s (--browser-timeout): the page hung; the browser was stopped, ${lost}`);
    }
    if (outcome === null && !browserAlive()) {
      const first = session.unhandledErrors()[0]?.split('\n')[0];
      throw new ProcessLostError(
        `${where}: the browser closed before the run finished (it crashed or was killed${first ? `; the run said: ${first}` : ''}); ${lost}`,
      );
    }
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the browser vitest's Playwright provider launched still runs: a descendant with Playwright's launch flag. */
const playwrightBrowserAlive = (): boolean => descendantWithArgument('--remote-debugging-pipe');
