import { defaultRunConfig, type RunConfig } from '../../run-config.js';
import type { OwnCalibrateOptions } from '../../runner/calibrate.js';
import type { BackendArgs } from '../command-spec.js';

/** What `calibrate` is asked. */
export type CalibrateArgs = {
  readonly command: 'calibrate';
  /** --processes K; null: not given (the command's own default: 60 per condition here, 20 per arm in a user's project). */
  readonly processes: number | null;
  /** --write-tolerances: write the smallest supported tolerances to baselines/tolerances.json. */
  readonly writeTolerances: boolean;
  /** --scenario (here): an A/A of these built-in scenarios, as in a project of your own, not the four conditions. */
  readonly scenarios: readonly string[];
} & BackendArgs;

/** Where --write-tolerances writes: the file `gtp ab` and `gtp baseline` read (results/baseline.ts). */
const TOLERANCES_FILE = 'baselines/tolerances.json';

/**
 * Which calibration runs, with everything it needs: here without --scenario the four conditions
 * of the built-in speedup scenario; in a user's project (or with --scenario) an A/A.
 */
export type CalibratePlan =
  | { readonly kind: 'four-conditions'; readonly config: RunConfig; readonly perCondition: number }
  | { readonly kind: 'a-a'; readonly options: OwnCalibrateOptions };

/** The plan phase of `calibrate`: the backend, the scenarios and what may be written checked before anything runs. */
export async function planCalibrate(args: CalibrateArgs): Promise<CalibratePlan> {
  const { checkBackendChoice, RunInputError, scenarioFiles } = await import('../../runner/perf.js');
  const { HARNESS_SOURCE } = await import('../../runner/arm-harness.js');
  const { OWN_CALIBRATE_PER_ARM } = await import('../../runner/calibrate.js');
  checkBackendChoice(args.backend);
  if (HARNESS_SOURCE === 'sources' && args.scenarios.length === 0) {
    if (args.writeTolerances)
      throw new RunInputError(
        'calibrate: --write-tolerances needs the A/A of named scenarios here (--scenario dtypes ...); the four-condition calibration writes results/calibration-*.json',
      );
    return { kind: 'four-conditions', config: defaultRunConfig(args), perCondition: args.processes ?? 60 };
  }
  if (HARNESS_SOURCE !== 'sources' && args.scenarios.length > 0)
    throw new RunInputError('calibrate: --scenario names built-in scenarios; in your project the A/A runs all of your perf files');
  if (args.scenarios.length > 0) scenarioFiles(args.scenarios);
  return {
    kind: 'a-a',
    options: {
      backend: args.backend,
      perArm: args.processes ?? OWN_CALIBRATE_PER_ARM,
      writeTolerances: args.writeTolerances ? TOLERANCES_FILE : null,
      scenarios: args.scenarios,
    },
  };
}
