import { readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { deriveSeed, seededRng } from '../base/random.js';
import { BASELINE_DIR } from '../results/baseline.js';
import { checkOutput, writeOutput } from '../results/output-guard.js';
import { RecordFileError, RESULTS_DIR } from '../results/storage.js';
import { significant } from '../report/format.js';
import { calibrateCondition, conditionsFrom, DEFAULT_PLAN, readPools, type CalibrationPlan, type Rate } from '../history/calibration.js';
import { changePointsOf, seriesOf, STEP_RESAMPLES, type Series } from '../history/change-points.js';
import { DEFAULT_EDIVISIVE, type EDivisiveParams } from '../history/edivisive.js';
import { changeSummary, describeStep, renderHistoryPage, shortCommit, type AnalysedSeries } from '../history/page.js';
import { defaultHistoryProfile, type HistoryHost } from '../history/default-profile.js';
import { HISTORY_DIR, historyProfiles, readHistory } from '../history/store.js';
import { lookupProfileFile } from '../results/profile-files.js';
import type { CommandSpec } from './command-spec.js';
import { UsageError } from './usage-error.js';
import { EXIT } from '../results/exit.js';
import { commandName } from '../base/commands.js';

/** What `perf:history` is asked. */
export interface HistoryArgs {
  /** The profile's folder to read; null: the only one there, or this machine's of several (history/default-profile.ts). */
  readonly profile: string | null;
  /** Metric ids; empty: every ratio and exact metric. */
  readonly metrics: readonly string[];
  /** The history folder (--history DIR, default history/). */
  readonly history: string;
  /** The trend page; null: results/history-<profile>.html. */
  readonly out: string | null;
  /** --calibrate: measure the detection's false-positive rate and recall on the calibration pools instead. */
  readonly calibrate: boolean;
  readonly force: boolean;
}

/** Seed of the permutations and bootstraps: the same history gives the same change points. */
const SEED = 20261219;

/** FNV-1a 32-bit hash of a string: each metric gets its own random stream whatever else is selected. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The method and its parameters in one line (printed, and on the page). */
export function methodLine(p: EDivisiveParams): string {
  return `Change points: ratio metrics by E-Divisive means (Matteson & James 2014) on log values, permutation test as MongoDB (Daly et al. 2020) / Apache Otava: minimum segment ${p.minSegment} records, alpha exponent ${p.alpha}, significance level ${p.significance}, ${p.permutations} permutations (seed ${SEED}); step = median ratio of the segments on both sides, 95% bootstrap interval (${STEP_RESAMPLES} resamples). Exact metrics: any change is a change point. Time and quality metrics: not analysed.`;
}

/** This machine, as the default profile's rule reads it (as backend/hardware-profile.ts reads the host for a profile id; not imported: it loads tfjs). */
export function thisHost(): HistoryHost {
  return { cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown', cores: Math.max(1, os.availableParallelism()), arch: os.arch() };
}

/**
 * The profile to read: the one asked for, the only one in the history, or where it holds several
 * this machine's Node profile (history/default-profile.ts), said with why and the others.
 */
async function chooseProfile(dir: string, asked: string | null, host: HistoryHost): Promise<string | null> {
  const folder = await stat(dir).catch(() => null);
  if (!folder?.isDirectory())
    throw new RecordFileError(`${dir}: no history folder there (${commandName('baseline')} appends to history/, ${commandName('perf')} --history DIR to DIR)`);
  const profiles = await historyProfiles(dir);
  if (asked !== null) {
    // A folder named by the id of before the CPU was part of it is still asked for by that name (it is read alone then).
    const folders = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    if (!profiles.includes(asked) && !folders.includes(asked))
      throw new UsageError(`--profile ${asked}: no such folder in ${dir} (there: ${profiles.join(', ') || 'none'})`);
    return asked;
  }
  if (profiles.length <= 1) return profiles[0] ?? null;
  const chosen = defaultHistoryProfile(profiles, host);
  if (chosen.profile === null) throw new UsageError(`${dir} holds several profiles (${profiles.join(', ')}) and ${chosen.why}: choose one with --profile`);
  // Said first: the page and the lines below are of this one profile (issue 40, item 12).
  console.log(`${dir}: drawing ${chosen.profile}, ${chosen.why}; also there: ${chosen.others.join(', ')} (choose one with --profile)`);
  return chosen.profile;
}

/** The series to show: those named (each must exist), else every ratio and exact series, in id order. */
function selectSeries(all: Map<string, Series>, ids: readonly string[]): Series[] {
  if (ids.length === 0) return [...all.values()].filter((s) => s.kind === 'ratio' || s.kind === 'exact').sort((a, b) => a.id.localeCompare(b.id));
  return ids.map((id) => {
    const s = all.get(id);
    if (!s) throw new UsageError(`--metric ${id}: no record of this history has it`);
    return s;
  });
}

/** Fewest records in which a ratio series can have a change point: a minimum segment on each side. */
const TESTABLE_FROM = 2 * DEFAULT_EDIVISIVE.minSegment;

/** One series in the console: its points (commit, value, CI) and its change points. */
function printSeries(a: AnalysedSeries): void {
  const { series, changePoints } = a;
  const head = `${series.id} (${series.kind}${series.unit ? `, ${series.unit}` : ''}): ${series.points.length} records`;
  if (series.kind === 'exact' && changePoints?.length === 0) {
    console.log(`${head}; constant ${series.points[0]!.value}`);
    return;
  }
  console.log(`${head}; ${changeSummary(a, TESTABLE_FROM)}`);
  series.points.forEach((p, i) => {
    const ci = p.ci ? `[${significant(p.ci[0], 4)}, ${significant(p.ci[1], 4)}]` : '';
    console.log(`  ${String(i + 1).padStart(3)}  ${shortCommit(p.commit)}${p.dirty ? '*' : ' '}  ${significant(p.value, 4).padStart(10)}  ${ci}`);
  });
  for (const c of changePoints ?? []) {
    console.log(`  CHANGE between #${c.index} (${shortCommit(c.before)}) and #${c.index + 1} (${shortCommit(c.after)}): ${describeStep(series, c)}`);
  }
}

/** The calibration file of a profile: baselines/<profile>.calibration.json, or the only one in baselines/. */
async function calibrationFile(profile: string | null): Promise<string> {
  // This profile's own file, or the one named by its id of before the CPU was part of it, made on this machine.
  if (profile) {
    const found = lookupProfileFile(BASELINE_DIR, profile, 'calibration');
    if (found.found === 'other-machine') throw new UsageError(`--calibrate: ${found.reason}`);
    return found.path;
  }
  const found = (await readdir(BASELINE_DIR).catch(() => [] as string[])).filter((n) => n.endsWith('.calibration.json'));
  if (found.length !== 1)
    throw new UsageError(`--calibrate: ${found.length === 0 ? 'no' : 'several'} <profile>.calibration.json in ${BASELINE_DIR}/; choose one with --profile`);
  return join(BASELINE_DIR, found[0]!);
}

const pct = (r: Rate) => `${(100 * r.rate).toFixed(1)}% [${(100 * r.ci[0]).toFixed(1)}, ${(100 * r.ci[1]).toFixed(1)}] (${r.k}/${r.n})`;

/** `perf:history --calibrate`: false-positive rate and recall of the detection on series drawn from the calibration pools. */
export async function calibrateHistory(
  profile: string | null,
  params: EDivisiveParams = DEFAULT_EDIVISIVE,
  plan: CalibrationPlan = DEFAULT_PLAN,
): Promise<number> {
  const file = await calibrationFile(profile);
  const conditions = conditionsFrom(await readPools(file));
  console.log(methodLine(params));
  console.log(
    `Calibration: ${plan.series} series of ${plan.length} points per condition, drawn with replacement from the per-process speedups in ${file}; the step (or the switch of pools) at an index uniform in [${plan.edge}, ${plan.length - plan.edge}]; recall = a change point within +-1 of it; rates with Wilson 95% intervals.`,
  );
  conditions.forEach((c, i) => {
    const o = calibrateCondition(c, params, plan, i);
    console.log(`  ${o.name}: any detection ${pct(o.anyDetection)}${o.recall ? `; recall ${pct(o.recall)}` : ' (false positives)'}`);
  });
  return EXIT.pass;
}

/**
 * `npm run perf:history`: reads one profile's history (ordered by git), prints each selected
 * metric's series and change points, writes the trend page. `cwd` is where `git log` runs;
 * `host` is the machine whose profile is drawn by default (this one).
 */
export async function historyCommand(args: HistoryArgs, cwd = process.cwd(), host: HistoryHost = thisHost()): Promise<number> {
  if (args.calibrate) return calibrateHistory(args.profile);
  const profile = await chooseProfile(args.history, args.profile, host);
  // Nothing to analyse and no page written: bad input, exit 2, as the exit table says (issue 41, item 7).
  if (profile === null) {
    throw new RecordFileError(
      `--history ${args.history} holds no records yet, so no page is written: ${commandName('baseline')} appends each accepted run there, and ${commandName('perf')} --history ${args.history} each run`,
    );
  }
  const out = args.out ?? join(RESULTS_DIR, `history-${profile}.html`);
  await checkOutput({ path: out, kind: 'HTML report', flag: '--out' }, args);
  const read = await readHistory(args.history, profile, cwd);
  // One damaged file is skipped and named (the rest of the history still shows its trend); a history of nothing usable is bad input.
  if (read.entries.length === 0 && read.skipped.length > 0) {
    const first = read.skipped[0]!;
    throw new RecordFileError(
      `${join(args.history, profile)}: none of its ${read.skipped.length} file(s) is a usable record (${first.path}: ${first.reason}${read.skipped.length > 1 ? '; ...' : ''}); replace or remove them`,
    );
  }
  const selected = selectSeries(seriesOf(read.entries), args.metrics);
  const analysed: AnalysedSeries[] = selected.map((series) => ({
    series,
    changePoints: changePointsOf(series, DEFAULT_EDIVISIVE, seededRng(deriveSeed(SEED, fnv1a(series.id)))),
  }));
  const notes = [
    methodLine(DEFAULT_EDIVISIVE),
    read.gitLog
      ? `Order: git log --first-parent of ${cwd}, oldest first; records of one commit by createdAt${read.outsideLog > 0 ? `; ${read.outsideLog} record(s) whose commit is not in that log go last, by createdAt` : ''}.`
      : `Order: no git log could be read in ${cwd}; all records by createdAt.`,
    ...(read.skipped.length > 0
      ? [`Skipped ${read.skipped.length} file(s) that could not be used:`, ...read.skipped.map((s) => `  ${s.path}: ${s.reason}`)]
      : []),
    // A copied file would weigh its commit double in the change-point search.
    ...(read.duplicates.length > 0
      ? [
          `Counted once: ${read.duplicates.length} file(s) with the same bytes as another record:`,
          ...read.duplicates.map((d) => `  ${d.path}: a copy of ${d.sameAs}`),
        ]
      : []),
  ];
  console.log(`History of ${profile}: ${read.entries.length} records in ${join(args.history, profile)}.`);
  for (const n of notes) console.log(n);
  for (const a of analysed) {
    console.log('');
    printSeries(a);
  }
  const changed = analysed.filter((a) => (a.changePoints?.length ?? 0) > 0).length;
  console.log(`\n${changed} of ${analysed.length} series have change points.`);
  await writeOutput(
    out,
    await renderHistoryPage({ profile, historyDir: args.history, records: read.entries.length, notes, analysed, testableFrom: TESTABLE_FROM }),
  );
  console.log(`Trend page: ${out}`);
  return EXIT.pass;
}

/** `gtp history` (`npm run perf:history` here): its flags, help, parse step and runner. */
export const historySpec: CommandSpec<{ readonly command: 'history' } & HistoryArgs> = {
  name: 'history',
  summary: 'trends and change points of the run records in history/',
  synopsis: '[options]',
  about: ['Trends and change points of the run records in history/<profile>/, printed and drawn on a page.'],
  options: [
    {
      name: 'history',
      type: 'string',
      usage: `  --history DIR           the history folder (default history/; perf --history DIR appends
                          each run's record to DIR/<profile>/, baseline the accepted run's)`,
    },
    {
      name: 'profile',
      type: 'string',
      usage: `  --profile P             the profile's folder to read (default: the only one there; of several,
                          this machine's Node profile, the one perf records here: its id names
                          this CPU, else it is the only GPU profile; said with the others)`,
    },
    { name: 'metric', type: 'string', multiple: true, usage: '  --metric ID             only this metric; repeatable (default: every ratio and exact metric)' },
    { name: 'out', type: 'string', usage: '  --out FILE              the trend page (default: results/history-<profile>.html)' },
    {
      name: 'calibrate',
      type: 'boolean',
      usage: `  --calibrate             false-positive rate and recall of the change-point detection on
                          series drawn from baselines/<profile>.calibration.json`,
    },
    'force',
  ],
  env: [],
  exits: [
    '0 analysed (the page written); a record that cannot be used (truncated, invalid, another',
    "  profile's, not a regular file) is skipped and named under 'Skipped N file(s)'",
    '2 bad usage or bad input (no history folder, an unknown profile, several and none this',
    "  machine's, no usable record in it)",
  ],
  parse: (line) => ({
    command: 'history',
    profile: line.str('profile'),
    metrics: line.many('metric'),
    history: line.str('history') ?? HISTORY_DIR,
    out: line.str('out'),
    calibrate: line.flag('calibrate'),
    force: line.flag('force'),
  }),
  run: (args) => historyCommand(args),
};
