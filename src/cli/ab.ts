import { exportFlagSpecs, exportPaths } from '../report/exporters.js';
import { type AbCommandArgs, planAb } from './ab/plan.js';
import { writeAb } from './ab/write.js';
import type { CommandSpec } from './command-spec.js';
import { nothingToCompareIsExit3 } from './harness-checkout.js';
import { UsageError } from './usage-error.js';

export type { AbCommandArgs } from './ab/plan.js';

/**
 * `npm run perf:ab -- --base REF` here, `npx gtp ab --base REF` in a user's project: A/B of two
 * commits on this machine, each measured by its own harness, judged per process; exit 3 when an
 * arm has nothing to measure it or with.
 */
export function abCommand(args: AbCommandArgs): Promise<number> {
  return nothingToCompareIsExit3(() => ab(args));
}

/**
 * Plan (src/cli/ab/plan.ts), measure and judge, write (ab/write.ts). Measuring and judging are one
 * call of the runner: the sequential design judges the first look to decide whether to measure
 * the arms once more, inside one workspace of checkouts (src/runner/ab.ts runAb).
 */
async function ab(args: AbCommandArgs): Promise<number> {
  const plan = await planAb(args);
  const { runAb } = await import('../runner/ab.js');
  return writeAb(plan, await runAb(plan.measure));
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
    'browser',
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
    "1 a metric regressed, or an arm's process was lost (a browser that crashed or a page that hung)",
    '2 bad usage or bad input (a REF that is no commit, an output path that holds another kind of file,',
    '  scenarios a baseline shows record no ratio or time metric, with --browser a backend no page runs',
    '  or no Chromium), found before anything is measured',
    '3 nothing to compare: a commit without the harness or without perf files (with --browser: without',
    '  perf/browser/, a commit from before the browser host), or no ratio or time metric measured in',
    "  both arms (nothing judged), or an arm's process that measured nothing (a perf file that does not",
    '  load: the commit and its error named)',
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
      ...line.browser(),
    };
  },
  run: abCommand,
};
