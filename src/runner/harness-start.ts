/**
 * A checkout whose harness never measured: its measure host (or its perf command) ended before
 * its first run record, e.g. a commit without perf/, or whose code does not start. perf:bisect
 * judges such a probe "skip" (as `git bisect skip`) and goes on; perf:ab names the cause.
 */
export class HarnessStartError extends Error {
  override readonly name = 'HarnessStartError';
  constructor(
    /** The checkout, as the arm's label names it: 'probe-2 (0123456789ab)'. */
    readonly label: string,
    /** What the harness said before it ended, in one line, with its exit status. */
    readonly said: string,
  ) {
    super(`${label}: its harness did not start: ${said}`);
  }
}

/** A stack frame line of Node's error output ('    at f (file:1:2)'). */
const FRAME = /^\s+at\s/;

/**
 * The line of a failed start's stderr that names the cause: gtp's own one-line error
 * ('error: ...'), else the thrown error's message line ('RunInputError: perf: no such folder'),
 * else the last line that is not a stack frame or Node's version banner; with the exit status.
 * Older commits print a whole stack for a bad start: its last lines are frames, which say nothing.
 */
export function startCause(stderr: string, exit: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const own = lines.find((l) => l.startsWith('error: '));
  const thrown = lines.find((l) => /^[A-Za-z]*Error(?: \[[A-Z_]+\])?: /.test(l));
  const last = lines.filter((l) => !FRAME.test(l) && !/^Node\.js v\d/.test(l) && !/^\s*\^+\s*$/.test(l)).at(-1);
  const said = own?.slice('error: '.length) ?? thrown ?? last;
  return said ? `${said.slice(0, 400)} (${exit})` : `it printed nothing (${exit})`;
}
