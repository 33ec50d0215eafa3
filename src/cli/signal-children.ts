import { childPids } from '../base/process-tree.js';
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
