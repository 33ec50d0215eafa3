/**
 * A browser process: one Chromium launch on the session's one Vite server, closed when its record
 * is taken; `perf --browser --processes K` (runner/perf.ts) and the measure host of `ab --browser`
 * (runner/measure-host.ts, one per request, so that no browser of one arm idles while the other
 * arm measures) both measure so. The launch is the browser's unit of replication (its
 * renderer, GPU process, JIT and device new each time; docs/baselines.md); the server that hands
 * the page its files is not. A checkout holds this module when its host takes --browser
 * (arm-harness.ts): an older one is measured a `perf --browser` command per launch.
 */
import type { RunRecord } from '../results/schema.js';
import type { BrowserLaunch } from './browser.js';
import { runBrowserProcess } from './browser-process.js';
import type { ScenarioSession } from './run-scenarios.js';

/** The module's path in a checkout of this repository, and in the installed package: what says a host takes --browser. */
export const HOST_BROWSER_MODULE = { sources: 'src/runner/host-browser.ts', installed: 'dist/runner/host-browser.js' } as const;

/** One launch: the session's files in a new Chromium, watched as perf's are (a hung or lost page is a ProcessLostError); the browser closed after. */
export async function measureOneLaunch(session: ScenarioSession, browser: BrowserLaunch, label: string): Promise<RunRecord | null> {
  let record: RunRecord | null;
  try {
    record = await runBrowserProcess(session, browser, label);
  } catch (error) {
    // The launch's own failure is the cause to report (a lost or hung page), not a failed close after it.
    await session.relaunchBrowser().catch(() => undefined);
    throw error;
  }
  await session.relaunchBrowser();
  return record;
}
