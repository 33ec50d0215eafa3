import { EXIT } from '../results/exit.js';

/**
 * ab, bisect and calibrate run wherever the harness runs: in this repository each checkout's own
 * sources measure it, in a user's project each checkout's own installed package
 * (runner/arm-harness.ts). An arm with no harness or no perf files is nothing to compare: the
 * message says what to do, and the exit code is 3, as for a missing baseline.
 */
export async function nothingToCompareIsExit3(command: () => Promise<number>): Promise<number> {
  const { NothingToCompareError } = await import('../runner/ab.js');
  try {
    return await command();
  } catch (error) {
    if (!(error instanceof NothingToCompareError)) throw error;
    console.error(`error: ${error.message}`);
    return EXIT.noBaseline;
  }
}
