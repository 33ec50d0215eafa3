import { EXIT } from '../results/exit.js';
import { checkOutputs, writeJsonOutput } from '../results/output-guard.js';
import type { AbArgs, CommandSpec } from './command-spec.js';
import { nothingToCompareIsExit3 } from './harness-checkout.js';
import { UsageError } from './usage-error.js';

/** What `bisect` is asked. */
export type BisectArgs = {
  readonly command: 'bisect';
  readonly good: string;
  readonly bad: string;
  /** --metric ID: the metric that moved (default: any judged ratio or time metric). */
  readonly metric: string | null;
} & AbArgs;

/**
 * `npm run perf:bisect -- --good REF --bad REF` (`npx gtp bisect` in a user's project): the first
 * commit whose metric is worse; exit 0 when found, 1 when not, 3 when a probe has nothing to measure it.
 */
export function bisectCommand(args: BisectArgs): Promise<number> {
  return nothingToCompareIsExit3(() => bisect(args));
}

async function bisect(args: BisectArgs): Promise<number> {
  const { abMeasureOptions, nothingToJudgeReason } = await import('../runner/ab.js');
  const { runBisect } = await import('../runner/bisect.js');
  const { renderBisect } = await import('../report/ab.js');
  const { RunInputError } = await import('../runner/perf.js');
  const measure = abMeasureOptions(args);
  // Each probe is an A/B: scenarios known to record nothing it judges would make every probe "same".
  const nothingToJudge = await nothingToJudgeReason({ ...measure, command: 'bisect' });
  if (nothingToJudge) throw new RunInputError(nothingToJudge);
  await checkOutputs([args.json ? { path: args.json, kind: 'bisect file', flag: '--json' } : null], args);
  const result = await runBisect({ good: args.good, bad: args.bad, metric: args.metric, ...measure });
  console.log(`\n${renderBisect(result)}`);
  if (args.json) await writeJsonOutput(args.json, result);
  return result.culprit ? EXIT.pass : EXIT.regression;
}

/** `gtp bisect` (`npm run perf:bisect` here): its flags, help, parse step and runner. */
export const bisectSpec: CommandSpec<BisectArgs> = {
  name: 'bisect',
  summary: 'the first commit between them whose metric is worse',
  synopsis: '--good REF --bad REF [options]',
  about: [
    'The first commit between the two ends whose metric is worse: each probe is an A/B against the',
    'good end; a probe whose harness cannot start is skipped, as git bisect skip.',
  ],
  options: [
    { name: 'good', type: 'string', usage: '  --good REF, --bad REF   the range: the good end is the older commit (both required)' },
    { name: 'bad', type: 'string', usage: '' },
    { name: 'metric', type: 'string', usage: '  --metric ID             the metric that moved (default: any judged metric)' },
    'ab',
    { name: 'json', type: 'string', usage: '  --json FILE             write the probes and the culprit there too' },
    'force',
  ],
  env: [],
  exits: [
    '0 a culprit was found',
    '1 none was found (only skipped commits left: they are named as the candidates)',
    '2 bad usage or bad input (a good or bad end that cannot start: named, with the cause; scenarios',
    '  a baseline shows record no ratio or time metric), found before anything is measured',
    '3 nothing to compare: a probe without the harness or without perf files',
  ],
  parse: (line) => {
    const good = line.str('good');
    const bad = line.str('bad');
    if (!good || !bad) throw new UsageError('bisect: --good REF and --bad REF are both required (commits, branches or tags; good is the older)');
    return { command: 'bisect', good, bad, metric: line.str('metric'), ...line.ab() };
  },
  run: bisectCommand,
};
