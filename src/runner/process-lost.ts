/**
 * A measuring process ended without its values (a browser that crashed or was killed, a page
 * that hung past --browser-timeout): the run is not written (a run is whole or not at all), and
 * the CLI says which process was lost and why (exit 1). Its own module so that the CLI's entry
 * recognises it without loading the runner.
 */
export class ProcessLostError extends Error {
  override readonly name = 'ProcessLostError';
}
