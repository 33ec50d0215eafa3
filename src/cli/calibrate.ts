import { defaultRunConfig } from '../run-config.js';
import type { BackendArgs, CommandSpec } from './command-spec.js';
import { nothingToCompareIsExit3 } from './harness-checkout.js';

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
 * `npm run perf:calibrate` here: how trustworthy the cross-process verdicts are on this machine
 * (the built-in speedup scenario, four conditions). `npx gtp calibrate` in a user's project: an
 * A/A of the project's own perf files, each metric's spread and the tolerance it supports.
 */
export async function calibrateCommand(args: CalibrateArgs): Promise<number> {
  const { checkBackendChoice, RunInputError } = await import('../runner/perf.js');
  const { HARNESS_SOURCE } = await import('../runner/arm-harness.js');
  const { OWN_CALIBRATE_PER_ARM, runCalibrate, runOwnCalibrate } = await import('../runner/calibrate.js');
  checkBackendChoice(args.backend);
  if (HARNESS_SOURCE === 'sources' && args.scenarios.length === 0) {
    if (args.writeTolerances)
      throw new RunInputError(
        'calibrate: --write-tolerances needs the A/A of named scenarios here (--scenario dtypes ...); the four-condition calibration writes results/calibration-*.json',
      );
    return runCalibrate(defaultRunConfig(args), args.processes ?? 60);
  }
  if (HARNESS_SOURCE !== 'sources' && args.scenarios.length > 0)
    throw new RunInputError('calibrate: --scenario names built-in scenarios; in your project the A/A runs all of your perf files');
  if (args.scenarios.length > 0) {
    const { scenarioFiles } = await import('../runner/perf.js');
    scenarioFiles(args.scenarios);
  }
  return nothingToCompareIsExit3(() =>
    runOwnCalibrate({
      backend: args.backend,
      perArm: args.processes ?? OWN_CALIBRATE_PER_ARM,
      writeTolerances: args.writeTolerances ? TOLERANCES_FILE : null,
      scenarios: args.scenarios,
    }),
  );
}

/** `gtp calibrate` (`npm run perf:calibrate` here): its flags, help, parse step and runner. */
export const calibrateSpec: CommandSpec<CalibrateArgs> = {
  name: 'calibrate',
  summary: 'how far values move between processes on this machine',
  synopsis: '[options]',
  about: [
    'How far values move between processes on this machine and what the verdicts can tell apart:',
    'in this repository the built-in speedup scenario under four conditions; in your project an',
    "A/A of your perf files, each metric's spread and the smallest tolerance it supports.",
  ],
  options: [
    'run',
    {
      name: 'processes',
      type: 'string',
      usage: `  --processes K           processes per condition (default 60; in your project: per arm of the
                          A/A, default 20)`,
    },
    {
      name: 'scenario',
      type: 'string',
      multiple: true,
      scope: 'built-in',
      usage: `  --scenario NAME         an A/A of these scenarios instead (repeatable), as in your
                          project: each metric's spread and tolerance`,
    },
    {
      name: 'write-tolerances',
      type: 'boolean',
      usage: `  --write-tolerances      write each metric's smallest supported tolerance to
                          baselines/tolerances.json (merged; ab and baseline read it)`,
    },
  ],
  env: [],
  exits: ['0 calibrated (written where said)', '2 bad usage or bad input', '3 nothing to compare: no harness or no perf files in your project'],
  parse: (line) => ({
    command: 'calibrate',
    ...line.run(),
    processes: line.str('processes') === null ? null : line.count('processes', 1),
    writeTolerances: line.flag('write-tolerances'),
    scenarios: line.many('scenario'),
  }),
  run: calibrateCommand,
};
