/**
 * The browsers `--browser` takes and the error a browser that cannot be used raises, apart from
 * runner/browser.ts (which loads tfjs and vitest's provider) so that a command refuses an
 * unsupported browser without loading either (src/cli/light-start.e2e.test.ts).
 */

/** The browsers `--browser` takes; firefox and webkit have no WebGPU that tfjs can use headless here. */
export const SUPPORTED_BROWSERS = ['chromium'] as const;
export type BrowserName = (typeof SUPPORTED_BROWSERS)[number];

/** A browser that cannot be used as asked: the user's to fix (exit 2), said with what to do. */
export class BrowserSetupError extends Error {
  override readonly name = 'BrowserSetupError';
}

/** Why `--browser name` is refused, or null when it is supported. */
export function unsupportedBrowser(name: string): string | null {
  if ((SUPPORTED_BROWSERS as readonly string[]).includes(name)) return null;
  return `--browser ${name}: not supported; supported: ${SUPPORTED_BROWSERS.join(', ')} (Firefox and WebKit have no WebGPU tfjs can use headless on Linux)`;
}
