import { FROM_SOURCES } from '../base/commands.js';
import { defaultRunConfig } from '../run-config.js';
import type { BackendArgs, CommandSpec, ParsedLine } from './command-spec.js';
import { nothingToCompareIsExit3 } from './harness-checkout.js';
import { UsageError } from './usage-error.js';

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

/**
 * The fewest processes per condition of the four-condition calibration: two looks of 8 + 8 per
 * arm drawn without replacement (runCalibrate's PLAN.perArm = 8 in src/runner/calibrate.ts).
 */
export const CALIBRATE_MIN_PER_CONDITION = 32;
/** The fewest processes per arm of an A/A (runOwnCalibrate): a spread needs three values. */
export const CALIBRATE_MIN_PER_ARM = 3;

/**
 * --processes K, checked against the minimum of the calibration it asks for (the four conditions
 * here without --scenario, else an A/A): a count below it is a usage error, before anything runs.
 */
export function calibrateProcesses(line: Pick<ParsedLine, 'str' | 'count'>, scenarios: readonly string[], sources: boolean = FROM_SOURCES): number | null {
  if (line.str('processes') === null) return null;
  const k = line.count('processes', 1);
  const fourConditions = sources && scenarios.length === 0;
  const least = fourConditions ? CALIBRATE_MIN_PER_CONDITION : CALIBRATE_MIN_PER_ARM;
  if (k < least) {
    const why = fourConditions
      ? `processes per condition: two looks of 8 + 8 per arm, drawn without replacement (default 60)`
      : 'processes per arm of the A/A: a spread needs three values (default 20)';
    throw new UsageError(`calibrate: --processes ${k} is too few; use ${least} or more ${why}`);
  }
  return k;
}

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
      usage: `  --processes K           processes per condition (default 60, at least 32: two looks of 8
                          per arm); in an A/A (your project, or named scenarios): per arm
                          (default 20, at least 3)`,
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
  exits: [
    '0 calibrated (written where said)',
    '2 bad usage or bad input (--processes below its minimum: 32 per condition, 3 per arm of an A/A)',
    '3 nothing to compare: no harness or no perf files in your project',
  ],
  parse: (line) => ({
    command: 'calibrate',
    ...line.run(),
    processes: calibrateProcesses(line, line.many('scenario')),
    writeTolerances: line.flag('write-tolerances'),
    scenarios: line.many('scenario'),
  }),
  run: calibrateCommand,
};
