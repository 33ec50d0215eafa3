import { describe, expect, it } from 'vitest';
import { defaultRunConfig } from '../../run-config.js';
import { RunInputError } from '../../runner/perf.js';
import { parseCommandLine } from '../args.js';
import { type CalibrateArgs, planCalibrate } from './plan.js';

function calibrateArgs(argv: string[]): CalibrateArgs {
  const args = parseCommandLine(['calibrate', ...argv], {});
  if (args.command !== 'calibrate') throw new Error('not calibrate');
  return args;
}

describe("calibrate's plan phase (here, from the sources)", () => {
  it('without --scenario: the four conditions of the built-in speedup scenario, 60 processes each unless given', async () => {
    expect(await planCalibrate(calibrateArgs(['--backend', 'cpu']))).toMatchObject({
      kind: 'four-conditions',
      config: defaultRunConfig({ backend: 'cpu', requireBackend: null, scale: 'quick' }),
      perCondition: 60,
    });
    expect(await planCalibrate(calibrateArgs(['--processes', '32']))).toMatchObject({ perCondition: 32 });
  });

  it('with --scenario: an A/A of those scenarios, 20 processes per arm unless given, the tolerances file when asked', async () => {
    expect(await planCalibrate(calibrateArgs(['--scenario', 'dtypes', '--write-tolerances']))).toEqual({
      kind: 'a-a',
      options: { backend: 'auto', perArm: 20, writeTolerances: 'baselines/tolerances.json', scenarios: ['dtypes'] },
    });
    expect(await planCalibrate(calibrateArgs(['--scenario', 'dtypes', '--processes', '3']))).toMatchObject({ options: { perArm: 3, writeTolerances: null } });
  });

  it('refuses before anything runs: tolerances from the four conditions, an unknown scenario', async () => {
    await expect(planCalibrate(calibrateArgs(['--write-tolerances']))).rejects.toThrow(/--write-tolerances needs the A\/A of named scenarios here/);
    await expect(planCalibrate(calibrateArgs(['--scenario', 'no-such-scenario']))).rejects.toThrow(RunInputError);
  });
});
