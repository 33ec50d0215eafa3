/**
 * Nothing to compare (exit 3, like a missing baseline): an arm has no harness to measure it or
 * no perf files to measure, or its process measured nothing. The message says what to do. Its
 * own module so that the measure host (measure-host.ts) and the A/B (ab.ts) share it without a cycle.
 */
export class NothingToCompareError extends Error {
  override readonly name = 'NothingToCompareError';
}

/** An arm's process that measured nothing (`said`: its first error line, if any): exit 3, naming the arm and what to do. */
export function nothingMeasuredError(label: string, said: string | undefined): NothingToCompareError {
  const cut = (text: string) => (text.length > 400 ? `${text.slice(0, 400)}...` : text);
  return new NothingToCompareError(
    `${label}: nothing was measured there${said ? `: ${cut(said)}` : ' (no scenario reached a backend)'}; fix its perf files or pick another commit (its own \`perf\` shows the same)`,
  );
}
