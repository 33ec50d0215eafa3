/**
 * `gpu-transfer-perf/vitest`: the vitest settings every measuring run of the harness needs
 * (src/runner/vitest-settings.ts, which `gtp perf` applies too), for the harness's own
 * vitest.config.ts and a user's. An entry point like a command: where a plain `vitest run` has
 * no command line, the preset builds the run configuration from the PERF_* variables with
 * cli/args.ts, the one reader of the environment, so it stands in the cli layer
 * (.dependency-cruiser.mjs).
 */
import { mergeConfig, type ViteUserConfig } from 'vitest/config';
import { runConfigFromEnv } from './cli/args.js';
import { BenchThroughputReporter } from './runner/bench-reporter.js';
import { GTP_BENCH_INCLUDE, GTP_SPEC_INCLUDE, GTP_TEST_SETTINGS } from './runner/vitest-settings.js';

export { GTP_BENCH_INCLUDE, GTP_SPEC_INCLUDE, GTP_TEST_SETTINGS, PathOrderSequencer } from './runner/vitest-settings.js';

/**
 * The harness's vitest config: the measuring settings, perf/ specs and benches, the bench reporter,
 * and the run configuration from PERF_* variables (a plain `vitest run` has no command line;
 * `gtp perf` provides its own).
 */
export function gtpPreset(): ViteUserConfig {
  return {
    test: {
      ...GTP_TEST_SETTINGS,
      include: [...GTP_SPEC_INCLUDE],
      provide: { runConfig: runConfigFromEnv() },
      benchmark: { include: [...GTP_BENCH_INCLUDE], reporters: ['default', new BenchThroughputReporter()] },
    },
  };
}

/**
 * The preset with a project's own settings merged in by vite's mergeConfig: objects merge,
 * scalars of `overrides` win, arrays are appended (an `include` adds to perf/ specs).
 */
export function defineGtpConfig(overrides: ViteUserConfig = {}): ViteUserConfig {
  return mergeConfig(gtpPreset(), overrides);
}
