import { appendJobSummary, writeAbExports } from '../report/write-exports.js';
import { exportFlagSpecs, exportOutputs, exportPaths, exportTargets } from '../report/exporters.js';
import type { AbArgs, CommandSpec } from './command-spec.js';
import { checkJobSummary, checkOutputs, writeJsonOutput, writeOutput } from '../results/output-guard.js';
import { nothingToCompareIsExit3 } from './harness-checkout.js';
import { UsageError } from './usage-error.js';

/** What `ab` is asked. */
export type AbCommandArgs = {
  readonly command: 'ab';
  readonly base: string;
  readonly head: string | null;
  readonly markdown: string | null;
  /** The registry's formats ab writes (--bmf FILE, --junit FILE, ...), by flag name; null: not written. */
  readonly exports: Readonly<Record<string, string | null>>;
  /** The CI job summary file the verdicts are appended to ($GITHUB_STEP_SUMMARY); null outside GitHub Actions. */
  readonly jobSummary: string | null;
} & AbArgs;

/**
 * `npm run perf:ab -- --base REF` here, `npx gtp ab --base REF` in a user's project: A/B of two
 * commits on this machine, each measured by its own harness, judged per process; exit 3 when an
 * arm has nothing to measure it or with.
 */
export function abCommand(args: AbCommandArgs): Promise<number> {
  return nothingToCompareIsExit3(() => ab(args));
}

async function ab(args: AbCommandArgs): Promise<number> {
  const { abMeasureOptions, nothingToJudgeReason, runAb } = await import('../runner/ab.js');
  const { RunInputError } = await import('../runner/perf.js');
  const { abMarkdown, renderAb } = await import('../report/ab.js');
  const measure = abMeasureOptions(args);
  const nothingToJudge = await nothingToJudgeReason({ ...measure, command: 'ab' });
  if (nothingToJudge) throw new RunInputError(nothingToJudge);
  await checkOutputs(
    [
      args.json ? { path: args.json, kind: 'A/B verdict file', flag: '--json' } : null,
      args.markdown ? { path: args.markdown, kind: 'Markdown verdict summary', flag: '--markdown' } : null,
      ...exportOutputs(exportTargets('ab', args.exports, null)),
    ],
    args,
  );
  await checkJobSummary(args.jobSummary, {});
  const result = await runAb({ base: args.base, head: args.head, ...measure });
  console.log(`\n${renderAb(result)}`);
  if (args.json) await writeJsonOutput(args.json, result);
  if (args.markdown) await writeOutput(args.markdown, abMarkdown(result));
  await writeAbExports(result, exportTargets('ab', args.exports, null));
  await appendJobSummary(args.jobSummary, abMarkdown(result));
  return result.exitCode;
}

/** `gtp ab` (`npm run perf:ab` here): its flags, help, parse step and runner. */
export const abSpec: CommandSpec<AbCommandArgs> = {
  name: 'ab',
  summary: 'A/B: processes of REF and of the working tree, judged per process',
  synopsis: '--base REF [options]',
  about: [
    'A/B on this machine: processes of REF and of the working tree (or --head REF) alternated,',
    "each arm measured by its own commit's harness on its own perf files, judged per process.",
    "Run it in the root of your project's git repository: each commit's perf/ is measured (no --dir).",
  ],
  options: [
    {
      name: 'base',
      type: 'string',
      usage: `  --base REF              the commit to compare against (required); a baseline file
                          (baselines/<profile>.json) means the commit it was measured at`,
    },
    { name: 'head', type: 'string', usage: '  --head REF              the other arm (default: the working tree)' },
    'ab',
    { name: 'json', type: 'string', usage: '  --json FILE             write the verdicts there too, as JSON' },
    { name: 'markdown', type: 'string', usage: '  --markdown FILE         write the verdicts there too, as Markdown' },
    ...exportFlagSpecs('ab'),
    'force',
  ],
  env: [
    {
      usage:
        '  GITHUB_STEP_SUMMARY     (set by GitHub Actions) the Markdown verdicts are appended to it;\n                          checked before anything is measured',
    },
  ],
  exits: [
    '0 no metric regressed',
    '1 a metric regressed',
    '2 bad usage or bad input (a REF that is no commit, an output path that holds another kind of file,',
    '  scenarios a baseline shows record no ratio or time metric), found before anything is measured',
    '3 nothing to compare: a commit without the harness or without perf files, or no ratio or',
    '  time metric measured in both arms (nothing judged)',
  ],
  parse: (line) => {
    const base = line.str('base');
    if (!base) throw new UsageError('ab: --base REF is required (a commit, branch or tag to compare the working tree or --head with)');
    return {
      command: 'ab',
      base,
      head: line.str('head'),
      markdown: line.str('markdown'),
      exports: exportPaths('ab', line.str),
      jobSummary: line.jobSummary(),
      ...line.ab(),
    };
  },
  run: abCommand,
};
