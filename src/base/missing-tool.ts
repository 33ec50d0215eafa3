/**
 * Thrown by a source whose external program (ffmpeg) is missing or does not start: the data may
 * be fine, the machine lacks the tool. A run that did not name the scenario skips it with
 * `reason` (one line, what is missing and what to do); naming it is an error (exit 2).
 */
export class MissingToolError extends Error {
  override readonly name: string = 'MissingToolError';
  constructor(
    message: string,
    /** What to say where the scenario is skipped: 'ffmpeg not found (FFMPEG_PATH or PATH); install ffmpeg to measure it'. */
    readonly reason: string,
  ) {
    super(message);
  }
}
