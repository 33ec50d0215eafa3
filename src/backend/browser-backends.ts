/**
 * The names of the backends a browser page runs, apart from their start (browser-start.ts) so
 * that the CLI's flag checks name them without loading tfjs.
 */

/** The backends a browser page runs. */
export const BROWSER_BACKENDS = ['webgpu', 'webgl'] as const;
export type BrowserBackendName = (typeof BROWSER_BACKENDS)[number];

/** Whether a backend name is one a browser page runs. */
export function isBrowserBackend(name: string): name is BrowserBackendName {
  return (BROWSER_BACKENDS as readonly string[]).includes(name);
}
