import { startVitest } from 'vitest/node';
import type { RunRecord } from '../results/schema.js';
import type { RunConfig } from '../run-config.js';
import { RunRecordReporter } from './reporter.js';
import { SCENARIO_GLOBS, type ScenarioFile } from './scenarios.js';

/**
 * Runs scenario files in one new vitest worker process (one device) and returns their run
 * record. The run configuration travels by vitest's `provide` (read with `inject` in the
 * worker and by the reporter): one typed channel, no environment variables.
 */
export async function runScenarios(files: readonly ScenarioFile[], config: RunConfig, options: { quiet?: boolean } = {}): Promise<RunRecord | null> {
  const reporter = new RunRecordReporter();
  const vitest = await startVitest(
    'test',
    files.map((f) => f.path),
    { run: true, watch: false },
    {
      test: { include: [...SCENARIO_GLOBS], reporters: options.quiet ? [reporter] : ['default', reporter], provide: { runConfig: config } },
    },
  );
  await vitest.close();
  return reporter.record;
}
