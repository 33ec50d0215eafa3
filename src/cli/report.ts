import { BASELINE_DIR, findBaseline } from '../results/baseline.js';
import { compareWithBaseline, EXIT, failingVerdicts, type Comparison } from '../results/compare.js';
import { judgingContext } from '../results/host-allowance.js';
import type { RunRecord } from '../results/schema.js';
import { besideRecord, latestRecordPath, readRunRecord } from '../results/storage.js';
import type { CommandSpec } from './command-spec.js';
import { UsageError } from './usage-error.js';
import { checkOutput, writeOutput } from '../results/output-guard.js';
import { commandLine } from '../base/commands.js';

/** What `npm run report -- [RUN.json] [--baseline FILE] [--out FILE]` was given. */
export interface ReportArgs {
  readonly run: string | null;
  readonly baseline: string | null;
  readonly baselines: string;
  readonly out: string | null;
  readonly force: boolean;
}

/**
 * `npm run report`: rebuilds a run's HTML report (default: the latest run in results/), judged
 * against its profile's baseline or --baseline. Exit codes as every command's: 0 written (and
 * passing, or no baseline to judge against: the page says so); 1 the run has errors or a gating
 * metric regressed (the page is still written); 2 bad usage or an unreadable run or baseline
 * file (main maps RecordFileError); 3 the comparison was refused (profile, scale or data mismatch).
 */
export async function reportCommand(args: ReportArgs): Promise<number> {
  const runPath = args.run ?? (await latestRecordPath());
  if (!runPath) throw new UsageError(`no run record given and none in results/: run ${commandLine('perf')} first`);
  const record = await readRunRecord(runPath);
  const { path: baselinePath, baseline } = await findBaseline(record, args.baseline, args.baselines);
  // Judged as compare and perf judge it: with the profile's calibrated spread and, for a baseline of this device from another CPU, its allowance.
  const comparison: Comparison | null = baseline
    ? compareWithBaseline(record, baseline, {
        allowProfileMismatch: false,
        gateTiming: false,
        ...(await judgingContext(record, baselinePath, baseline)),
      })
    : null;
  const out = args.out ?? besideRecord(runPath, '.html');
  await checkOutput({ path: out, kind: 'HTML report', flag: args.out ? '--out' : 'the HTML report beside the run record' }, args);
  const { htmlExporter } = await import('../report/html.js');
  // A kit run's folder: the doctor reports beside the record give the report the machine's upload references.
  const { withReferencesBeside } = await import('../doctor/physical/references.js');
  const beside = await withReferencesBeside(runPath, record);
  for (const note of beside.notes) console.log(note);
  await writeOutput(out, await htmlExporter.render({ record: beside.record, recordPath: runPath, comparison }, { color: false }));
  console.log(`Report: ${out} (run ${runPath}; ${baseline ? `baseline ${baselinePath}` : `no baseline at ${baselinePath}`})`);
  const code = comparison ? comparison.exitCode : record.errors.length > 0 ? EXIT.regression : EXIT.pass;
  const why = exitReason(code, record, comparison);
  if (why) console.error(why);
  return code;
}

/** One line saying why the report command exits non-zero (a CI log shows it beside the exit code); null on exit 0. */
export function exitReason(code: number, record: RunRecord, comparison: Comparison | null): string | null {
  if (code === EXIT.pass) return null;
  if (comparison?.refused) return `exit ${code}: the comparison was refused: ${comparison.refused}`;
  const reasons: string[] = [];
  if (record.errors.length > 0) {
    const names = record.errors.map((e) => e.scenario);
    reasons.push(`${record.errors.length} error${record.errors.length === 1 ? '' : 's'} in the run (${[...new Set(names)].join(', ')})`);
  }
  const failing = comparison ? failingVerdicts(comparison.verdicts, record.selection) : [];
  if (failing.length > 0) {
    const ids = failing.map((v) => `${v.id} ${v.verdict}`);
    reasons.push(`${failing.length} gating metric${failing.length === 1 ? '' : 's'} failed (${ids.join(', ')})`);
  }
  const detail = reasons.length > 0 ? reasons.join('; ') : 'see the verdicts';
  return `exit ${code}: ${detail}; the page was written all the same, \`gtp compare <run>\` prints every verdict`;
}

/** `gtp report` (`npm run report` here): its flags, help, parse step and runner. */
export const reportSpec: CommandSpec<{ readonly command: 'report' } & ReportArgs> = {
  name: 'report',
  summary: "rebuild a run's HTML report (default: the latest run)",
  synopsis: '[RUN.json] [options]',
  about: ["Rebuilds a run's HTML report (default: the latest run in results/), judged against its profile's baseline."],
  options: [
    { name: 'baseline', type: 'string', usage: "  --baseline FILE         judge the run against this baseline (default: its profile's)" },
    { name: 'baselines', type: 'string', usage: '  --baselines DIR         the folder of baselines instead of baselines/' },
    { name: 'out', type: 'string', usage: '  --out FILE              where the HTML goes (default: beside the run record, .html)' },
    'force',
  ],
  positionals: 1,
  env: [],
  exits: [
    '0 written (and passing, or no baseline to judge against: the page says so)',
    '1 the run has errors or a gating metric regressed (the page is still written; a line says why)',
    '2 bad usage or an unreadable run or baseline file, a --baselines folder that does not exist',
    '3 the comparison was refused (a profile, scale or data mismatch, or nothing to judge)',
  ],
  parse: (line) => ({
    command: 'report',
    run: line.positionals[0] ?? null,
    baseline: line.str('baseline'),
    baselines: line.folder('baselines') ?? BASELINE_DIR,
    out: line.str('out'),
    force: line.flag('force'),
  }),
  run: reportCommand,
};
