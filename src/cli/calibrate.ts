import { defaultRunConfig } from '../run-config.js';
import { runCalibrate } from '../runner/calibrate.js';
import type { BackendArgs } from './args.js';

/** `npm run perf:calibrate`: how trustworthy the ratio verdicts are on this machine. */
export function calibrateCommand(args: BackendArgs & { processes: number }): Promise<number> {
  return runCalibrate(defaultRunConfig(args), args.processes);
}
