import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { descendantPids } from '../../src/base/process-tree.js';
import { signalExitCode } from '../../src/results/exit.js';

/**
 * A gtp started through npm (`npm run gtp --`, or `npx gtp` in a user's project: npm's `sh -c`
 * between npm and the CLI), signalled at npm's pid as `timeout`, a CI cancel or `kill PID` send
 * it, or at its process group as a terminal's Ctrl-C does: what is left running 5 s after, and
 * what the history folder held at the signal. Shared by npm-signals.e2e (this repository) and
 * the pack test (a user's project).
 */

/** Whether a process still runs (a zombie, exited but not yet reaped, counts as ended). */
export function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Lists a folder tree's files (relative paths), or [] when it does not exist. */
export const filesUnder = (dir: string): string[] => (existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).sort() : []);

export interface Stopped {
  readonly code: number | null;
  readonly output: string;
  /** Processes under npm at the signal that still ran 5 s after it. */
  readonly survivors: number[];
  /** The history folder's files just before the signal (none given: []). */
  readonly historyAtSignal: string[];
  /** Whether `until` held before the signal went (true when none was given); false: signalled after its 60 s anyway. */
  readonly untilHeld: boolean;
}

export interface LauncherSignal {
  /** The launcher and its arguments, e.g. ['npm', 'run', '--silent', 'gtp', '--', ...] or ['npx', '--no', 'gtp', ...]. */
  readonly command: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Text in the output after which, `delayMs` later, the signal goes. */
  readonly after: string;
  readonly delayMs: number;
  readonly signal: NodeJS.Signals;
  /** 'pid': to npm's pid alone; 'group': to npm's process group (npm leads a group of its own), as Ctrl-C. */
  readonly to?: 'pid' | 'group';
  readonly history?: string;
  /** Polled every 100 ms (up to 60 s) after `after` showed, before the delay: e.g. a Chromium among npm's descendants. */
  readonly until?: (npmPid: number) => Promise<boolean>;
}

/**
 * Starts the launcher; once `after` is in its output and `delayMs` passed, sends `signal`.
 * Resolves 5 s after the signal, or when npm and every process it had ended; anything still
 * running then is killed (SIGKILL) so that nothing outlives the test.
 */
export function signalledLauncher(s: LauncherSignal): Promise<Stopped> {
  const [file, ...args] = s.command;
  const npm = spawn(file!, args, { cwd: s.cwd, env: s.env, detached: s.to === 'group' });
  let output = '';
  let sent = false;
  let exit: number | null | undefined;
  const exited = new Promise<void>((done) =>
    npm.on('exit', (code, sig) => {
      exit = code ?? (sig ? signalExitCode(sig) : null);
      done();
    }),
  );
  return new Promise((resolve) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (sent || !output.includes(s.after)) return;
      sent = true;
      const ready = async (): Promise<boolean> => {
        if (!s.until) return true;
        for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100)))
          if (await s.until(npm.pid!)) return true;
        return false;
      };
      void ready().then((untilHeld) =>
        setTimeout(async () => {
          const tree = descendantPids(npm.pid!);
          const historyAtSignal = s.history ? filesUnder(s.history) : [];
          if (s.to === 'group') process.kill(-npm.pid!, s.signal);
          else npm.kill(s.signal);
          const deadline = Date.now() + 5_000;
          while (Date.now() < deadline && (exit === undefined || tree.some(running))) await new Promise((r) => setTimeout(r, 100));
          const survivors = tree.filter(running);
          for (const pid of survivors) process.kill(pid, 'SIGKILL'); // leave nothing running after the test
          await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))]);
          resolve({ code: exit ?? null, output, survivors, historyAtSignal, untilHeld });
        }, s.delayMs),
      );
    };
    npm.stdout.on('data', collect);
    npm.stderr.on('data', collect);
    // A command that ended before the text appeared fails the caller's checks (its code, no signal sent).
    void exited.then(() => {
      if (!sent) resolve({ code: exit ?? null, output, survivors: [], historyAtSignal: [], untilHeld: false });
    });
  });
}
