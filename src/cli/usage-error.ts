/** A command line the user must fix: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
