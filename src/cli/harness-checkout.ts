import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RunInputError } from '../runner/perf.js';

/**
 * perf:ab and perf:calibrate check out commits of the current repository and run each one's
 * own harness from its sources (src/cli/main.ts through tsx), and calibrate measures the
 * built-in speedup scenario: both work in this harness's own repository only. Elsewhere (a
 * user's project with the package installed) they stop at once with what to do instead.
 */
export function requireHarnessCheckout(command: 'perf:ab' | 'perf:bisect' | 'perf:calibrate', root = process.cwd()): void {
  if (existsSync(join(root, 'src/cli/main.ts')) && existsSync(join(root, 'node_modules/.bin/tsx'))) return;
  throw new RunInputError(
    `${command} runs in a checkout of gpu-transfer-perf itself (it runs each commit's own harness from its sources); in your project, judge ratios across processes with gtp perf --processes K against a baseline accepted from a --processes K run`,
  );
}
