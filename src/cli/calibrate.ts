import { defaultRunConfig } from '../run-config.js';
import { HARNESS_SOURCE } from '../runner/arm-harness.js';
import { OWN_CALIBRATE_PER_ARM, runCalibrate, runOwnCalibrate } from '../runner/calibrate.js';
import { checkBackendChoice, RunInputError } from '../runner/perf.js';
import type { CommandLine } from './args.js';
import { nothingToCompareIsExit3 } from './harness-checkout.js';

/** Where --write-tolerances writes: the file `gtp ab` and `gtp baseline` read (results/baseline.ts). */
const TOLERANCES_FILE = 'baselines/tolerances.json';

/**
 * `npm run perf:calibrate` here: how trustworthy the cross-process verdicts are on this machine
 * (the built-in speedup scenario, four conditions). `npx gtp calibrate` in a user's project: an
 * A/A of the project's own perf files, each metric's spread and the tolerance it supports.
 */
export function calibrateCommand(args: Extract<CommandLine, { command: 'calibrate' }>): Promise<number> {
  checkBackendChoice(args.backend);
  if (HARNESS_SOURCE === 'sources') {
    if (args.writeTolerances)
      throw new RunInputError('calibrate: --write-tolerances is for a project of your own (the built-in calibration writes results/calibration-*.json)');
    return runCalibrate(defaultRunConfig(args), args.processes ?? 60);
  }
  return nothingToCompareIsExit3(() =>
    runOwnCalibrate({ backend: args.backend, perArm: args.processes ?? OWN_CALIBRATE_PER_ARM, writeTolerances: args.writeTolerances ? TOLERANCES_FILE : null }),
  );
}
