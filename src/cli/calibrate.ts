import { FROM_SOURCES } from '../base/commands.js';
import { type CalibrateArgs, planCalibrate } from './calibrate/plan.js';
import type { CommandSpec, ParsedLine } from './command-spec.js';
import { nothingToCompareIsExit3 } from './harness-checkout.js';

export type { CalibrateArgs } from './calibrate/plan.js';

/**
 * The fewest processes per condition of the four-condition calibration: two looks of 8 + 8 per
 * arm drawn without replacement (runCalibrate's PLAN.perArm = 8 in src/runner/calibrate.ts).
 */
export const CALIBRATE_MIN_PER_CONDITION = 32;
/** The fewest processes per arm of an A/A (runOwnCalibrate): a spread needs three values. */
export const CALIBRATE_MIN_PER_ARM = 3;

/**
 * --processes K, checked against the minimum of the calibration it asks for (the four conditions
 * here without --scenario, else an A/A): any value outside it is one usage error stating the
 * whole range (ParsedLine.count), before anything runs.
 */
export function calibrateProcesses(line: Pick<ParsedLine, 'str' | 'count'>, scenarios: readonly string[], sources: boolean = FROM_SOURCES): number | null {
  if (line.str('processes') === null) return null;
  const fourConditions = sources && scenarios.length === 0;
  return line.count(
    'processes',
    1,
    fourConditions
      ? { least: CALIBRATE_MIN_PER_CONDITION, why: 'processes per condition: two looks of 8 + 8 per arm, drawn without replacement; default 60' }
      : { least: CALIBRATE_MIN_PER_ARM, why: 'processes per arm of the A/A: a spread needs three values; default 20' },
  );
}

/**
 * `npm run perf:calibrate` here: how trustworthy the cross-process verdicts are on this machine
 * (the built-in speedup scenario, four conditions). `npx gtp calibrate` in a user's project: an
 * A/A of the project's own perf files, each metric's spread and the tolerance it supports.
 * Plan (src/cli/calibrate/plan.ts), then the calibration's measure, judge and write phases
 * (src/runner/calibrate.ts).
 */
export async function calibrateCommand(args: CalibrateArgs): Promise<number> {
  const plan = await planCalibrate(args);
  const { runCalibrate, runOwnCalibrate } = await import('../runner/calibrate.js');
  if (plan.kind === 'four-conditions') return runCalibrate(plan.config, plan.perCondition);
  return nothingToCompareIsExit3(() => runOwnCalibrate(plan.options));
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
                          (default 20, at least 3); at most 200`,
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
    '2 bad usage or bad input (--processes outside its range: 32 to 200 per condition, 3 to 200 per arm of an A/A)',
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
