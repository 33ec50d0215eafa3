import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { runConfigFromEnv } from './src/cli/args.js';
import { BenchThroughputReporter } from './src/runner/bench-reporter.js';

/** Runs files in path order, so perf/ scenarios run in the article's section order. */
class PathOrderSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

/**
 * `npm test`: unit tests beside the code plus the scenario specs in perf/.
 * `npm run perf` (src/runner/run-scenarios.ts) reuses this file with perf/*.spec.ts and
 * perf/*.perf.ts, and provides the run configuration the command line built;
 * `npx vitest bench` runs perf/*.bench.ts (vitest bench() blocks).
 *
 * All files run in ONE forked process (maxWorkers 1, isolate false): they share one
 * backend and one device, started once (src/suite/session.ts).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'perf/**/*.spec.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    sequence: { sequencer: PathOrderSequencer },
    // A plain `vitest run` has no command line: every scenario on the embedded data, backend
    // and scale from PERF_* (src/cli/args.ts reads them). `npm run perf` overrides this.
    provide: { runConfig: runConfigFromEnv() },
    benchmark: { include: ['perf/**/*.bench.ts'], reporters: ['default', new BenchThroughputReporter()] },
    // Device start-up on a software rasterizer and a profiled train step take seconds.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
