import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, signalExitCode } from '../results/exit.js';
import type { RunRecord } from '../results/schema.js';
import { readRunRecord, writeJsonAtomic } from '../results/storage.js';
import type { RunConfig } from '../run-config.js';
import type { BrowserLaunch } from './browser.js';
import { HarnessStartError, startCause } from './harness-start.js';
import { nothingMeasuredError } from './nothing-to-compare.js';
import { ProcessLostError } from './process-lost.js';
import { openScenarioSession } from './run-scenarios.js';
import type { ScenarioFile } from './scenarios.js';

/**
 * A measure host: one long-lived program per checkout that measures the same scenario files
 * again and again, each time in a new forked process (openScenarioSession), and writes each
 * process's run record where it is asked to. perf:ab and perf:bisect start one per arm instead
 * of a whole `gtp perf` command per process: the measuring process is as fresh as before (its
 * own tfjs, backend and device), but Node, tsx, the CLI and vitest start once per arm.
 *
 * Requests and replies travel over Node's IPC channel, so nothing the tests print can be taken
 * for a reply.
 */

/** The host's entry, relative to a checkout: a commit without it is measured the old way (a command per process). */
export const MEASURE_HOST_ENTRY = 'src/cli/measure-host.ts';
/**
 * The host's entry in the installed package, relative to its folder (node_modules/gpu-transfer-perf):
 * built JavaScript, started with plain node (a user's project need not have tsx).
 */
export const PACKAGE_MEASURE_HOST_ENTRY = 'dist/cli/measure-host.js';

/** How a host is started: a program and its arguments before perf's flags. */
export interface HostLaunch {
  readonly command: string;
  readonly args: readonly string[];
}

/** Parent -> host: measure once more and write the record to `out`; or stop (after the last reply). */
type MeasureRequest = { readonly out: string } | { readonly stop: true };
/**
 * Host -> parent: one per request, in order; `lost`: a browser process that crashed or hung
 * (ProcessLostError); `nothing`: the process measured nothing, `error` its first cause (exit 3).
 */
type MeasureReply = { readonly ok: true } | { readonly ok: false; readonly error: string; readonly lost?: boolean; readonly nothing?: boolean };

/** A request whose process ran no scenario: its first cause (a perf file that did not load, ...), one line. */
class NothingMeasured extends Error {}

/**
 * Host side: serves measure requests on the IPC channel until the parent closes it. With a
 * `browser`, each request is one launch of it on the session's one Vite server (host-browser.ts).
 */
export async function serveMeasurements(files: readonly ScenarioFile[], config: RunConfig, browser: BrowserLaunch | null = null): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) throw new Error('the measure host is started by perf:ab / perf:bisect, with an IPC channel');
  const session = await openScenarioSession(files, config, { quiet: true, browser });
  // In a browser a request is one launch (host-browser.ts); in Node one forked process (session.run).
  const oneLaunch = browser ? (await import('./host-browser.js')).measureOneLaunch.bind(null, session, browser) : null;
  let requests = 0;
  // perf:ab stops its children with SIGTERM on Ctrl-C: close vitest (its forked worker, its temp folders) first.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void session.close().finally(() => process.exit(signalExitCode(signal))));
  }
  const reply = (message: MeasureReply) => new Promise<void>((done) => send(message, undefined, {}, () => done()));
  // One request at a time: the parent waits for each reply, and a queue keeps the order anyway.
  let queue = Promise.resolve();
  // An explicit stop, not the channel's disconnect: tsx runs the program in a child of its own,
  // and a disconnect of tsx's channel does not reach it.
  let stopped: () => void = () => undefined;
  const stop = new Promise<void>((done) => {
    stopped = done;
  });
  process.once('disconnect', () => stopped());
  process.on('message', (request: MeasureRequest) => {
    if ('stop' in request) {
      stopped();
      return;
    }
    queue = queue.then(async () => {
      try {
        requests++;
        const record = oneLaunch ? await oneLaunch(`launch ${requests}`) : await session.run();
        if (!record) throw new NothingMeasured([...session.fileErrors(), ...session.unhandledErrors()][0]?.split('\n')[0] ?? '');
        await writeJsonAtomic(request.out, record);
        await reply({ ok: true });
      } catch (error) {
        const kind = error instanceof ProcessLostError ? { lost: true } : error instanceof NothingMeasured ? { nothing: true } : {};
        await reply({ ok: false, error: (error as Error).message, ...kind });
      }
    });
  });
  await stop;
  await queue;
  await session.close();
  process.exit(EXIT.pass); // tfjs and Dawn handles would keep the program alive
}

/** Parent side: a started host of one checkout. */
export interface MeasureHost {
  readonly child: ChildProcess;
  /** Measures once more in a new process; resolves to that process's record (migrated on read). */
  measure(out: string): Promise<RunRecord>;
  /** Asks the host to stop (it closes vitest and exits); killed if it has not exited after 30 s. */
  close(): Promise<void>;
}

/** Whether the checkout at `dir` has a measure host (older commits measure a command per process). */
export function hasMeasureHost(dir: string): boolean {
  return existsSync(join(dir, MEASURE_HOST_ENTRY));
}

/**
 * Starts the host of the checkout at `dir` (its working directory: its perf files, its
 * baselines) on `perfArgs` (perf's flags: scenarios, backend). `launch` says which harness:
 * default the checkout's own sources through its tsx (this repository); in a user's project the
 * checkout's installed package, with node. `label` names the checkout in errors.
 */
export function startMeasureHost(
  dir: string,
  perfArgs: readonly string[],
  env: NodeJS.ProcessEnv,
  label: string,
  launch: HostLaunch = { command: join(dir, 'node_modules/.bin/tsx'), args: [MEASURE_HOST_ENTRY] },
): MeasureHost {
  const child = spawn(launch.command, [...launch.args, ...perfArgs], {
    cwd: dir,
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  // Enough for a whole Node stack: a host that fails to start names its cause above the frames.
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-16_000);
  });
  const tail = () => stderr.split('\n').slice(-5).join(' | ');
  // Replies that brought a record: before the first, a host that ends never started measuring.
  let answered = 0;
  const ended = (status: string) =>
    answered === 0
      ? new HarnessStartError(label, startCause(stderr, status))
      : new Error(`${label}: the measure host exited (${status}); its stderr ended: ${tail()}`);
  let pending: { done: () => void; fail: (error: Error) => void } | null = null;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.on('message', (reply: MeasureReply) => {
    const waiting = pending;
    pending = null;
    if (!waiting) return;
    if (reply.ok) {
      answered++;
      waiting.done();
    } else if (reply.lost) waiting.fail(new ProcessLostError(`${label}: ${reply.error}`));
    else if (reply.nothing) waiting.fail(nothingMeasuredError(label, reply.error || undefined));
    else waiting.fail(new Error(`${label}: the process failed (${reply.error})`));
  });
  child.once('exit', (code, signal) => {
    pending?.fail(ended(signal ?? `exit code ${code}`));
    pending = null;
  });
  return {
    child,
    async measure(out) {
      if (child.exitCode !== null || child.signalCode !== null) throw ended(child.signalCode ?? `exit code ${child.exitCode}`);
      await new Promise<void>((done, fail) => {
        pending = { done, fail };
        // A channel closed by an exit in between fails here, not as an unhandled 'error' event; the exit handler names the cause.
        child.send({ out } satisfies MeasureRequest, (error) => {
          if (error && child.exitCode === null && child.signalCode === null) fail(error);
        });
      });
      try {
        return await readRunRecord(out);
      } catch (error) {
        throw new Error(`${label}: the process wrote no readable run record (${(error as Error).message}); its stderr ended: ${tail()}`);
      }
    },
    async close() {
      if (child.connected) child.send({ stop: true } satisfies MeasureRequest);
      const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(kill);
    },
  };
}
