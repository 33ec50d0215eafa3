/**
 * How a message quotes a value it was given (a path, a flag's value, a program's output): whole
 * up to MAX_SHOWN characters, else its start and its length (docs/usage.md: "A value quoted in a
 * message is cut after 200 characters"). In base/ so that every layer's messages cut alike.
 */

/** Longest value quoted whole in a message; a longer one is cut (a 120,000-character value would fill the terminal). */
export const MAX_SHOWN = 200;

/** `value` as a message shows it: whole up to MAX_SHOWN characters, else its start and how long it is. */
export const shown = (value: string): string => (value.length <= MAX_SHOWN ? value : `${value.slice(0, MAX_SHOWN)}... (${value.length} characters)`);

/**
 * A program's output as a message quotes it, on one line: its first non-blank line, cut as
 * shown() cuts it, and how many lines it printed in all (`/bin/true --version` prints seven).
 */
export function shownOutput(output: string): string {
  const lines = output.trim().split(/\r?\n/);
  const first = lines.find((l) => l.trim() !== '')?.trim() ?? '';
  return `'${shown(first)}'${lines.length > 1 ? ` (the first of its ${lines.length} lines)` : ''}`;
}
