/**
 * The vitest settings every measuring run of the harness needs: `gtp perf` applies them
 * (run-scenarios.ts), and the preset (`gpu-transfer-perf/vitest`, src/vitest.ts) exports them
 * for the harness's own vitest.config.ts and a user's.
 */
import type { ViteUserConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Runs files in path order, so perf files run in their numbered (article section) order. */
export class PathOrderSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

/**
 * What makes a run a measurement, whatever else a config says: every file in ONE forked
 * process, one file at a time (one backend and one device, started once, shared by all files),
 * in path order; time limits for a device start-up on a software rasterizer and a profiled
 * train step, which take seconds. `gtp perf` applies these over a project's own config.
 */
export const GTP_TEST_SETTINGS = {
  pool: 'forks',
  maxWorkers: 1,
  fileParallelism: false,
  isolate: false,
  sequence: { sequencer: PathOrderSequencer },
  testTimeout: 180_000,
  hookTimeout: 180_000,
} as const satisfies NonNullable<ViteUserConfig['test']>;

/** The spec files (asserting) that a plain `vitest run` picks up; timed `*.perf.ts` files run through `gtp perf`. */
export const GTP_SPEC_INCLUDE = ['perf/**/*.spec.ts'] as const;
/** The `bench()` files that `vitest bench` picks up. */
export const GTP_BENCH_INCLUDE = ['perf/**/*.bench.ts'] as const;
