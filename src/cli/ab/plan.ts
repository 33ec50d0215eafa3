import { type ExportTarget, exportOutputs, exportTargets } from '../../report/exporters.js';
import { checkJobSummary, checkOutputs } from '../../results/output-guard.js';
import type { AbOptions } from '../../runner/ab.js';
import type { AbArgs, BrowserArgs } from '../command-spec.js';

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
} & AbArgs &
  BrowserArgs;

/** One `ab` as the later phases need it: what the arms measure, every output checked, no flag left to read. */
export interface AbPlan {
  /** The two arms, the scenarios, processes, backend and judged kinds. */
  readonly measure: AbOptions;
  readonly json: string | null;
  readonly markdown: string | null;
  /** The export files asked for (--bmf, --junit, ...), checked writable. */
  readonly exports: readonly ExportTarget[];
  readonly jobSummary: string | null;
}

/**
 * The plan phase of `ab`: the scenarios, process count and backend checked, what a baseline
 * shows they cannot judge refused, every output checked; all before a checkout is made.
 */
export async function planAb(args: AbCommandArgs): Promise<AbPlan> {
  const { abMeasureOptions, nothingToJudgeReason } = await import('../../runner/ab.js');
  const { RunInputError } = await import('../../runner/perf.js');
  // perf's own check of --browser, its backend and its path: a browser backend, a Chromium found (else exit 2).
  const { browserOf } = await import('../perf/plan.js');
  const launch = await browserOf(args);
  const browser = launch && {
    name: launch.name,
    path: args.browserPath?.from === '--browser-path' ? args.browserPath.path : null,
    timeoutS: args.browserTimeout,
  };
  const measure = abMeasureOptions({ ...args, browser });
  const nothingToJudge = await nothingToJudgeReason({ ...measure, command: 'ab' });
  if (nothingToJudge) throw new RunInputError(nothingToJudge);
  const exports = exportTargets('ab', args.exports, null);
  await checkOutputs(
    [
      args.json ? { path: args.json, kind: 'A/B verdict file', flag: '--json' } : null,
      args.markdown ? { path: args.markdown, kind: 'Markdown verdict summary', flag: '--markdown' } : null,
      ...exportOutputs(exports),
    ],
    args,
  );
  await checkJobSummary(args.jobSummary, {});
  return { measure: { base: args.base, head: args.head, ...measure }, json: args.json, markdown: args.markdown, exports, jobSummary: args.jobSummary };
}
