import type { BisectResult } from '../results/ab-result.js';
import { EXIT } from '../results/exit.js';
import { checkOutputs, writeJsonOutput } from '../results/output-guard.js';
import type { BisectOptions } from '../runner/bisect.js';
import type { AbArgs, CommandSpec } from './command-spec.js';
import { nothingToCompareIsExit3 } from './harness-checkout.js';
import { UsageError } from './usage-error.js';

/** What `bisect` is asked. */
export type BisectArgs = {
  readonly command: 'bisect';
  readonly good: string;
  readonly bad: string;
  /** --metric ID: the metric to follow (default: those that regressed at the bad end). */
  readonly metric: string | null;
} & AbArgs;

/** A bisect as the later phases need it: what each probe measures, the range resolved, where the result goes; no flag left to read. */
export interface BisectPlan {
  readonly search: BisectOptions;
  /** --json FILE, checked writable; null: not asked. */
  readonly json: string | null;
}

/** The verdict of a whole bisect: the table to print and the exit code. */
export interface BisectVerdict {
  readonly text: string;
  readonly exitCode: number;
}

/**
 * `npm run perf:bisect -- --good REF --bad REF` (`npx gtp bisect` in a user's project): the first
 * commit whose followed metric is worse; exit 0 when found, 1 when not, 3 when a probe has
 * nothing to measure it. Four phases: plan, measure (the search), judge, write.
 */
export function bisectCommand(args: BisectArgs): Promise<number> {
  return nothingToCompareIsExit3(async () => {
    const plan = await planBisect(args);
    const { runBisect } = await import('../runner/bisect.js');
    const result = await runBisect(plan.search);
    return writeBisect(plan, result, await judgeBisect(result));
  });
}

/**
 * The plan phase: what each probe measures (scenarios, processes, backend, kinds: a usage or
 * input error is exit 2 here), scenarios a baseline shows record nothing a probe judges, the
 * --json output checked, then both ends resolved and the range listed. Nothing is checked out.
 */
export async function planBisect(args: BisectArgs): Promise<BisectPlan> {
  const { abMeasureOptions, nothingToJudgeReason } = await import('../runner/ab.js');
  const { bisectRange } = await import('../runner/bisect.js');
  const { RunInputError } = await import('../runner/perf.js');
  const measure = abMeasureOptions(args);
  // Each probe is an A/B: scenarios known to record nothing it judges would make every probe "same".
  const nothingToJudge = await nothingToJudgeReason({ ...measure, command: 'bisect' });
  if (nothingToJudge) throw new RunInputError(nothingToJudge);
  await checkOutputs([args.json ? { path: args.json, kind: 'bisect file', flag: '--json' } : null], args);
  const range = await bisectRange(args.good, args.bad);
  return { search: { ...measure, good: args.good, bad: args.bad, range, metric: args.metric }, json: args.json };
}

/** The judge phase: a named culprit passes (0), none found is exit 1; the table says which. */
export async function judgeBisect(result: BisectResult): Promise<BisectVerdict> {
  const { renderBisect } = await import('../report/ab.js');
  return { text: renderBisect(result), exitCode: result.culprit ? EXIT.pass : EXIT.regression };
}

/** The write phase: the table on the console, the result to --json, then the exit code. */
export async function writeBisect(plan: Pick<BisectPlan, 'json'>, result: BisectResult, verdict: BisectVerdict): Promise<number> {
  console.log(`\n${verdict.text}`);
  if (plan.json) await writeJsonOutput(plan.json, result);
  return verdict.exitCode;
}

/** `gtp bisect` (`npm run perf:bisect` here): its flags, help, parse step and runner. */
export const bisectSpec: CommandSpec<BisectArgs> = {
  name: 'bisect',
  summary: 'the first commit between them whose metric is worse',
  synopsis: '--good REF --bad REF [options]',
  about: [
    'The first commit between the two ends whose metric is worse: each probe is an A/B against the',
    'good end. The bad end is probed first; the metrics that regressed there (or --metric) decide',
    'every later probe, each in its own direction, the first conclusive one in order (ratios first);',
    'the other metrics are shown for information and never decide. A probe whose deciding metrics',
    'are all inconclusive takes another look (K more processes a side), three at most, then stops the',
    'search as unknown. A probe whose harness cannot start is skipped, as git bisect skip.',
  ],
  options: [
    { name: 'good', type: 'string', usage: '  --good REF, --bad REF   the range: the good end is the older commit (both required)' },
    { name: 'bad', type: 'string', usage: '' },
    {
      name: 'metric',
      type: 'string',
      usage: '  --metric ID             the one metric to follow (default: those that regressed at the bad end)',
    },
    'ab',
    { name: 'json', type: 'string', usage: '  --json FILE             write the probes and the culprit there too' },
    'force',
  ],
  env: [],
  exits: [
    '0 a culprit was found',
    '1 none was found (a probe unknown after its looks, or only skipped commits left: they are named',
    '  as the candidates)',
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
