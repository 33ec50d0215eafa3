import { constants } from 'node:os';

/**
 * The exit codes of every command (README and --help list them): the one spelling of each,
 * here in results/ so that cli, runner, doctor, kit and scripts all import it without an
 * arrow back up the layers.
 */
export const EXIT = {
  /** Everything passed. */
  pass: 0,
  /** A scenario or check failed, a gating metric regressed, or an unexpected error. */
  regression: 1,
  /** Bad usage or bad input (unknown flag, unreadable or invalid file, refused baseline update). */
  badInput: 2,
  /** No baseline for this profile (or a profile, scale or data mismatch). */
  noBaseline: 3,
} as const;

/** The exit code of a command stopped by `signal`, as a shell reports one: 128 + the signal's number (SIGINT 130, SIGTERM 143). */
export const signalExitCode = (signal: NodeJS.Signals): number => 128 + constants.signals[signal];
