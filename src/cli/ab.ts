import { abMarkdown, renderAb } from '../report/ab.js';
import { appendJobSummary } from '../report/write-exports.js';
import { writeJsonAtomic, writeTextAtomic } from '../results/storage.js';
import { abMeasureOptions, runAb } from '../runner/ab.js';
import type { CommandLine } from './args.js';
import { checkJobSummary, checkOutputs } from '../results/output-guard.js';
import { nothingToCompareIsExit3 } from './harness-checkout.js';

/**
 * `npm run perf:ab -- --base REF` here, `npx gtp ab --base REF` in a user's project: A/B of two
 * commits on this machine, each measured by its own harness, judged per process; exit 3 when an
 * arm has nothing to measure it or with.
 */
export function abCommand(args: Extract<CommandLine, { command: 'ab' }>): Promise<number> {
  return nothingToCompareIsExit3(() => ab(args));
}

async function ab(args: Extract<CommandLine, { command: 'ab' }>): Promise<number> {
  const measure = abMeasureOptions(args);
  await checkOutputs(
    [
      args.json ? { path: args.json, kind: 'A/B verdict file', flag: '--json' } : null,
      args.markdown ? { path: args.markdown, kind: 'Markdown verdict summary', flag: '--markdown' } : null,
    ],
    args,
  );
  await checkJobSummary(args.jobSummary, {});
  const result = await runAb({ base: args.base, head: args.head, ...measure });
  console.log(`\n${renderAb(result)}`);
  if (args.json) await writeJsonAtomic(args.json, result);
  if (args.markdown) await writeTextAtomic(args.markdown, abMarkdown(result));
  await appendJobSummary(args.jobSummary, abMarkdown(result));
  return result.exitCode;
}
