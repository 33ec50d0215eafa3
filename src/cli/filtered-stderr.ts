import { spawn } from 'node:child_process';
import { dawnNoticeFilter } from '../backend/dawn-notices.js';
import { signalExitCode } from '../results/exit.js';

/**
 * Dawn prints its two "artificially reduced" limit notices from native code straight to fd 2 of
 * the process that creates an adapter (src/backend/dawn-notices.ts); JavaScript cannot filter a
 * native write to its own fd 2. vitest's workers are filtered by the parent that reads their
 * stderr; a command that starts the device in its own process (doctor) is run once more as a child
 * whose stderr this process reads and passes on without those lines, so that a healthy
 * `doctor --health-check` is silent, as its contract says (issue 41, item 5).
 */

/** Set in the child: its stderr is already filtered (and its grandchildren's, which inherit it). */
const FILTERED = 'GTP_STDERR_FILTERED';
/** When the outermost process started (ms since the epoch), so that a deadline counts from there. */
const STARTED_AT = 'GTP_STARTED_AT_MS';

/**
 * The two variables of this parent-to-child protocol as this process has them: the harness's own
 * hand-over between its two processes, not a user setting, so read here (src/env-reads.test.ts allows them).
 */
const handedOver = (): Record<string, string | undefined> => ({ [FILTERED]: process.env.GTP_STDERR_FILTERED, [STARTED_AT]: process.env.GTP_STARTED_AT_MS });

/** Whether this process's stderr still needs the filter (it is not the filtered child). */
export const stderrUnfiltered = (env: Record<string, string | undefined> = handedOver()): boolean => env[FILTERED] !== '1';

/** Seconds since the command started: in the filtered child, since its parent started. */
export function secondsSinceCommandStart(env: Record<string, string | undefined> = handedOver(), now = Date.now()): number {
  const started = Number(env[STARTED_AT]);
  return Number.isFinite(started) && started > 0 ? Math.max(0, (now - started) / 1000) : process.uptime();
}

/**
 * Runs this same command line again in a child (the node binary, its flags such as tsx's loader,
 * this CLI's script) with stdout and stdin shared and stderr read through dawnNoticeFilter.
 * SIGINT and SIGTERM are passed on to the child; resolves to its exit code (128 + the signal's
 * number when a signal ended it).
 */
export function rerunWithFilteredStderr(argv: readonly string[]): Promise<number> {
  const startedAt = Date.now() - process.uptime() * 1000;
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...argv], {
    stdio: ['inherit', 'inherit', 'pipe'],
    env: { ...process.env, [FILTERED]: '1', [STARTED_AT]: String(Math.round(startedAt)) },
  });
  child.stderr!.pipe(dawnNoticeFilter());
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      done(code ?? (signal ? signalExitCode(signal) : 1));
    });
  });
}
