/** Thrown when a Kinetics folder is unusable as a whole: missing, unreadable, or nothing usable in it. */
export class KineticsDataError extends Error {
  override readonly name = 'KineticsDataError';
}
