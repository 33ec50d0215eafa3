import { renderBisect } from '../report/ab.js';
import { EXIT } from '../results/exit.js';
import { checkOutputs } from '../results/output-guard.js';
import { writeJsonAtomic } from '../results/storage.js';
import { abMeasureOptions } from '../runner/ab.js';
import { runBisect } from '../runner/bisect.js';
import type { CommandLine } from './args.js';
import { nothingToCompareIsExit3 } from './harness-checkout.js';

/**
 * `npm run perf:bisect -- --good REF --bad REF` (`npx gtp bisect` in a user's project): the first
 * commit whose metric is worse; exit 0 when found, 1 when not, 3 when a probe has nothing to measure it.
 */
export function bisectCommand(args: Extract<CommandLine, { command: 'bisect' }>): Promise<number> {
  return nothingToCompareIsExit3(() => bisect(args));
}

async function bisect(args: Extract<CommandLine, { command: 'bisect' }>): Promise<number> {
  const measure = abMeasureOptions(args);
  await checkOutputs([args.json ? { path: args.json, kind: 'bisect file', flag: '--json' } : null], args);
  const result = await runBisect({ good: args.good, bad: args.bad, metric: args.metric, ...measure });
  console.log(`\n${renderBisect(result)}`);
  if (args.json) await writeJsonAtomic(args.json, result);
  return result.culprit ? EXIT.pass : EXIT.regression;
}
