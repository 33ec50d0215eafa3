import { defaultRunConfig } from '../run-config.js';
import { runCalibrate } from '../runner/calibrate.js';
import { checkBackendChoice } from '../runner/perf.js';
import type { BackendArgs } from './args.js';
import { requireHarnessCheckout } from './harness-checkout.js';

/** `npm run perf:calibrate`: how trustworthy the cross-process verdicts are on this machine. */
export function calibrateCommand(args: BackendArgs & { processes: number }): Promise<number> {
  requireHarnessCheckout('perf:calibrate');
  checkBackendChoice(args.backend);
  return runCalibrate(defaultRunConfig(args), args.processes);
}
