/**
 * The user's input to a run is wrong (a folder, a scenario, a flag's value): exit 2, nothing run.
 * Its own module so that the CLI's entry can recognise it without loading the runner (tfjs,
 * vitest): a refusal or `--help` then costs a Node start, not the harness's.
 */
export class RunInputError extends Error {
  override readonly name = 'RunInputError';
}
