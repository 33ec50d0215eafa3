import { fileURLToPath } from 'node:url';
import { defineGtpConfig } from './src/vitest.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * `npm test`: unit tests beside the code plus the scenario specs in perf/, with the harness's
 * own preset (src/vitest.ts: all files in ONE forked process, path order, run configuration
 * from PERF_*). `npm run perf` (src/runner/run-scenarios.ts) loads this file too and runs
 * perf/*.spec.ts and perf/*.perf.ts with the run configuration the command line built;
 * `npx vitest bench` runs perf/*.bench.ts.
 */
export default defineGtpConfig({
  // perf/ imports the package by its name, as a user's perf files do; in this repository the
  // name means the sources (tsconfig.json's `paths` says the same to tsc), not a built dist/.
  // Anchored patterns: a plain 'gpu-transfer-perf' key would also catch 'gpu-transfer-perf/vitest'.
  resolve: {
    alias: [
      { find: /^gpu-transfer-perf$/, replacement: here('./src/index.ts') },
      { find: /^gpu-transfer-perf\/vitest$/, replacement: here('./src/vitest.ts') },
      // The public entries (src/api/<entry>.ts, package.json's exports).
      { find: /^gpu-transfer-perf\/(measure|transfer|data|record|scenarios)$/, replacement: here('./src/api/$1.ts') },
      { find: /^gpu-transfer-perf\/browser$/, replacement: here('./src/browser.ts') },
    ],
  },
  test: { include: ['src/**/*.test.ts', 'test/support/**/*.test.ts'] },
});
