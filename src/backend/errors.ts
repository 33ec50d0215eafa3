/** A backend that cannot start here; the message says why and what to do. */
export class BackendUnavailableError extends Error {
  override readonly name = 'BackendUnavailableError';
}
