import { childPids, commandLineOf } from '../base/process-tree.js';
import { signalExitCode } from '../results/exit.js';

export { childPids };

/**
 * A SIGINT or SIGTERM to the CLI reaches its children too (issue 41, item 1). vitest's own handler
 * ends the CLI at once (process.exit), but its forked worker, busy in a device call, sees the
 * closed IPC channel only when that call returns: seconds or minutes of measuring after the caller
 * was told the run had stopped (a training step: >5 s). So each signal is passed first to every
 * direct child (a vitest worker, a browser, a measure host, doctor's filtered child), whose
 * default action ends it; where no other handler (vitest's, the A/B's) ends this process, this one
 * does, with the status the signal's default action gives.
 */
export function passSignalsToChildren(children: () => number[] = childPids): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      for (const pid of children()) {
        try {
          process.kill(pid, signal);
        } catch {
          // Already gone.
        }
      }
      if (process.listenerCount(signal) === 1) process.exit(signalExitCode(signal));
    });
  }
}

/**
 * Whether a process's command line is npm's or npx's or the `sh -c` npm exec starts: npm sets its
 * title (`npm exec gtp perf`, `npm run perf`), which /proc shows as its first argument.
 */
export function isNpmLauncher(cmdline: readonly string[]): boolean {
  const [first = '', second] = cmdline;
  return (
    /^(npm|npx)( |$)/.test(first) || cmdline.some((arg) => /(^|\/)(npm|npx)(-cli\.js)?$/.test(arg)) || (/(^|\/)(ba|da)?sh$/.test(first) && second === '-c')
  );
}

/**
 * A CLI started through npm (`npx gtp`, npm exec's `sh -c`, an npm script) whose parent dies stops
 * as on SIGTERM (issue 51): on a signal npx and its `sh` exit at once, and this process, re-parented
 * to init, went on measuring and wrote its record after the caller had seen 143. Polls
 * process.ppid (Linux re-parents an orphan); the timer is unref'd and never keeps the process
 * alive. Started some other way (a shell, nohup, a service) it is left alone: there a parent that
 * goes away may mean "keep running".
 */
export function stopWhenOrphaned(intervalMs = 250): void {
  const parent = process.ppid;
  if (!isNpmLauncher(commandLineOf(parent))) return;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, intervalMs);
  timer.unref();
}
