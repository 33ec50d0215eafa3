import { defineConfig } from 'vitest/config';

/**
 * `npm test`: unit tests beside the code plus the scenario specs in perf/.
 * `npm run perf` (src/cli/main.ts) reuses this file and adds perf/*.bench.ts.
 *
 * All files run in ONE forked process (maxWorkers 1, isolate false): they share one
 * backend and one device, which is started once (see src/backend/start.ts).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'perf/**/*.spec.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    // Device start-up on a software rasterizer and a profiled train step take seconds.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
