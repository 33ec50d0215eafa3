import { abMarkdown, renderAb } from '../report/ab.js';
import { appendJobSummary } from '../report/write-exports.js';
import { writeJsonAtomic, writeTextAtomic } from '../results/storage.js';
import { abMeasureOptions, runAb } from '../runner/ab.js';
import type { CommandLine } from './args.js';
import { checkJobSummary, checkOutputs } from '../results/output-guard.js';
import { requireHarnessCheckout } from './harness-checkout.js';

/** `npm run perf:ab -- --base REF`: A/B of two commits on this machine, judged per process. */
export async function abCommand(args: Extract<CommandLine, { command: 'ab' }>): Promise<number> {
  requireHarnessCheckout('perf:ab');
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
