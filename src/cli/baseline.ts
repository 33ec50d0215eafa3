import { lstat, readFile, rm, stat } from 'node:fs/promises';
import { outputStream } from '../base/regular-file.js';
import { checkOutputEntry, checkWritableDir, OutputPathError } from '../results/output-guard.js';
import { dirname, join } from 'node:path';
import {
  BASELINE_DIR,
  baselineSchema,
  BaselineRefusedError,
  baselinePathFor,
  findBaseline,
  acceptOver,
  makeBaseline,
  mergeBaselines,
  readBaseline,
  readToleranceOverrides,
  refusalReason,
  type Baseline,
} from '../results/baseline.js';
import { entryKind, FileWriteError, readRunRecord, RecordFileError, writeJsonAtomic, writeTextAtomic } from '../results/storage.js';
import type { RunRecord } from '../results/schema.js';
import { appendedLine, appendToHistory, HISTORY_DIR, historyPath, historyRefusal } from '../history/store.js';
import { defaultRunConfig } from '../run-config.js';
import type { CommandSpec } from './command-spec.js';
import { UsageError } from './usage-error.js';
import { latestRunPath } from './compare.js';
import { EXIT } from '../results/exit.js';
import { commandLine } from '../base/commands.js';

/** What `baseline` is asked. */
export interface BaselineArgs {
  readonly command: 'baseline';
  readonly run: string | null;
  readonly target: string | null;
  readonly baselines: string;
  readonly allowDirty: boolean;
  readonly allowPartial: boolean;
  /** Replace only the run's metrics in the existing baseline, keep the others. */
  readonly merge: boolean;
  /** The history folder the accepted run's record is appended to (default history/). */
  readonly history: string;
}

/**
 * What accepting the run changes, metric values only: a json-diff, or '' when nothing changed.
 * json-diff's `precision` rounds the numbers of what it is given in place, so it gets copies:
 * given the baseline's own CI arrays, it rounded them before the write (a CI of 0.00032 ms became
 * [0.0003, 0.0003], which then no longer held its value and the baseline no longer read).
 */
export async function valueDiff(existing: Baseline | null, next: Baseline): Promise<string> {
  const { diffString } = await import('json-diff');
  const values = (b: Baseline | null) =>
    structuredClone(Object.fromEntries((b?.metrics ?? []).map((m) => [m.id, m.ci ? { value: m.value, ci: m.ci } : m.value])));
  return diffString(values(existing), values(next), { color: process.stdout.isTTY === true, precision: 4 });
}

/**
 * Checks, before the baseline is written, that the run's record can go to the history: its
 * profile's folder is a folder (made if missing) where a file can be written, the disk takes the
 * record (written once to a probe file and removed: ENOSPC is seen now, not after the baseline
 * changed), and the slot `<history>/<profile>/<commit>-<time>.json` is free or holds a regular
 * file that reads as a run record (then it is "already there"). A FIFO, socket, device, link
 * or a file that is no record at the slot is refused, as at `.prev`. Errors name the user's paths.
 */
async function checkHistorySlot(history: string, run: RunRecord): Promise<void> {
  const slot = historyPath(history, run);
  const folder = dirname(slot);
  await checkWritableDir(folder, `--history ${history}`);
  const probe = join(folder, `.gtp-history-probe-${process.pid}-${Date.now()}`);
  try {
    await writeJsonAtomic(probe, run);
  } catch (error) {
    const code = error instanceof FileWriteError ? error.code : ((error as NodeJS.ErrnoException).code ?? String(error));
    throw new OutputPathError(
      `--history ${history}: cannot write the run's record to ${slot} (${code}); free some space or choose another --history; nothing written`,
    );
  } finally {
    await rm(probe, { force: true });
  }
  const there = await lstat(slot).catch(() => null);
  if (!there) return;
  const what = `--history ${history}: ${slot}`;
  if (there.isSymbolicLink()) throw new OutputPathError(`${what} is a symbolic link, not a history record; remove it (nothing written)`);
  if (!there.isFile()) throw new OutputPathError(`${what} is ${entryKind(there)}, not a history record; remove it (nothing written)`);
  try {
    await readRunRecord(slot);
  } catch (error) {
    if (!(error instanceof RecordFileError)) throw error;
    throw new OutputPathError(`${what} is there and is not a run record (${error.message}); remove it (nothing written)`);
  }
}

/**
 * `npm run perf:baseline`: accepts a run as its profile's baseline, less the scenarios it lacks
 * (skipped for a missing tool, or with failed checks: named, and kept from the baseline where it has
 * them). Refuses runs from a dirty tree or with no commit, of another profile or scale, of only
 * some scenarios, or with an error outside any scenario; shows the change;
 * keeps the previous baseline as <file>.prev; writes atomically; then appends the run's record
 * to the history (<history>/<profile>/<commit>-<time>.json).
 */
export async function baselineCommand(args: Omit<BaselineArgs, 'command'>): Promise<number> {
  const runPath = args.run ?? (await latestRunPath());
  if (!runPath) throw new UsageError(`no run record given and none in results/: run ${commandLine('perf')} first`);
  const run = await readRunRecord(runPath);
  const target = args.target ?? baselinePathFor(run.profile.id, run.scale, args.baselines);
  // Named by the flag: a FIFO or file there otherwise surfaced as a bare ENOTDIR at the write.
  const folder = args.target ? null : await stat(args.baselines).catch(() => null);
  if (folder && !folder.isDirectory())
    throw new UsageError(`--baselines ${args.baselines}: ${entryKind(folder)}, not a folder; name a folder (it is made if missing)`);
  if (outputStream(target))
    throw new UsageError(`--baseline ${target}: a baseline is a file (later runs are judged against it and it keeps a .prev); name a file`);
  // From lstat/stat alone: a folder, FIFO or device is refused before anything opens it (copyFile to .prev would block on a FIFO).
  const entry = await checkOutputEntry(target, `--baseline ${target}`, { example: `${run.profile.id}.json`, stdoutHint: false });
  const kind = entry.kind === 'missing' ? 'absent' : 'file';
  // The previous file's copy is an output too: a FIFO or a link to a device at <target>.prev would block or be written through.
  if (kind === 'file')
    await checkOutputEntry(`${target}.prev`, `${target}.prev (where the previous baseline is kept)`, {
      example: `${run.profile.id}.json.prev`,
      stdoutHint: false,
    });
  // A corrupt existing baseline stops here, untouched (RecordFileError: exit 2).
  let existing: Baseline | null = kind === 'file' ? await readBaseline(target) : null;
  // No file under this profile's id yet: the one named by the id of before the CPU was part of it,
  // made on this machine, is this profile's baseline (to merge into and to diff against); the
  // result is written under the new id and the legacy file is left as it is.
  let legacyFrom: string | null = null;
  if (!existing && !args.target) {
    const found = await findBaseline(run, null, args.baselines);
    if (found.lookup?.found === 'legacy' && found.baseline) {
      existing = found.baseline;
      legacyFrom = found.path;
      console.log(found.lookup.note);
    }
  }
  const hadFile = kind === 'file';
  const embedded = args.target ? null : defaultRunConfig({ backend: 'auto', requireBackend: null, scale: run.scale }).datasets;
  if (args.merge && !existing) throw new BaselineRefusedError(`not merging ${runPath} into ${target}: there is no baseline there to merge into`);
  const refusal = refusalReason(run, existing, { dirty: args.allowDirty, partial: args.allowPartial || args.merge }, embedded);
  if (refusal) throw new BaselineRefusedError(`not accepting ${runPath} as ${target}: ${refusal}`);
  const accepted = makeBaseline(run, runPath, await readToleranceOverrides(join(args.baselines, 'tolerances.json')));
  // --merge: the run's metrics replace theirs, every other metric of the baseline stays.
  // Otherwise the run replaces the baseline, except the scenarios it lacks (skipped, failed checks), kept from the baseline.
  const next: Baseline = args.merge && existing ? mergeBaselines(existing, accepted) : acceptOver(existing, accepted);
  for (const l of accepted.lacks ?? []) {
    const kept = next.metrics.some((m) => m.scenario === l.scenario);
    console.log(`Left out: ${l.scenario}: ${l.reason}${kept ? ` (the baseline's ${l.scenario} figures are kept)` : ''}`);
  }
  const diff = await valueDiff(existing, next);
  console.log(
    existing
      ? `Changes to ${legacyFrom ? `${legacyFrom}, written as ${target}` : target}:\n${diff || '(no metric value changed)'}`
      : `New baseline ${target} for profile ${run.profile.id} (${run.scale}).`,
  );
  // What is written must read back: a baseline that fails its own schema is never written over a good one.
  const checked = baselineSchema.safeParse(next);
  if (!checked.success)
    throw new RecordFileError(
      `${target}: not written, the accepted baseline would not be valid (${checked.error.issues[0]?.message}); the previous file is unchanged`,
    );
  // The whole plan before any write: the history's folder and slot can take the record (issue 41, item 6).
  const noHistory = historyRefusal(run);
  if (!noHistory) await checkHistorySlot(args.history, run);
  try {
    // Read and written anew (temp + rename), never copied into what is at .prev: a link there is replaced, not written through.
    if (hadFile) await writeTextAtomic(`${target}.prev`, await readFile(target));
    await writeJsonAtomic(target, next);
  } catch (error) {
    throw new RecordFileError(
      `${target}: cannot write the baseline (${(error as NodeJS.ErrnoException).code ?? String(error)}); the previous file is unchanged`,
    );
  }
  console.log(`Wrote ${target}${hadFile ? ` (previous kept as ${target}.prev)` : ''}.`);
  // --allow-dirty accepted a run with no commit: a baseline, but no place in the commit-ordered history.
  if (noHistory) {
    console.log(`History: not appended to ${args.history}: ${noHistory}.`);
    return EXIT.pass;
  }
  try {
    const appended = await appendToHistory(args.history, run);
    console.log(appendedLine(appended));
  } catch (error) {
    if (!(error instanceof FileWriteError)) throw error;
    // The slot, not appendToHistory's temp file beside it: the user's path.
    throw new FileWriteError(`${historyPath(args.history, run)} (the baseline ${target} is written; the history is not)`, error.code);
  }
  return EXIT.pass;
}

/** `gtp baseline` (`npm run perf:baseline` here): its flags, help, parse step and runner. */
export const baselineSpec: CommandSpec<BaselineArgs> = {
  name: 'baseline',
  summary: "accept a run as its profile's new baseline",
  synopsis: '[RUN.json] [options]',
  about: [
    "Accepts a run (default: the latest in results/) as its profile's baseline: shows what changes,",
    'keeps the previous file as <file>.prev, and appends the run to the history. Scenarios the run',
    'skipped (a missing tool) or whose checks failed are left out and named; the baseline keeps its',
    'figures for them, or says it lacks them until a run that has them is accepted.',
  ],
  options: [
    { name: 'baseline', type: 'string', usage: "  --baseline FILE         where to write (default: the run's profile baseline)" },
    { name: 'baselines', type: 'string', usage: '  --baselines DIR         the folder of baselines instead of baselines/' },
    { name: 'allow-dirty', type: 'boolean', usage: '  --allow-dirty           accept a run made from a working tree with uncommitted changes' },
    { name: 'allow-partial', type: 'boolean', usage: "  --allow-partial         accept a run of only some scenarios, dropping the others' metrics" },
    {
      name: 'merge',
      type: 'boolean',
      usage: `  --merge                 replace only the run's metrics in the existing baseline (e.g. a
                          --processes 8 run of speedup and dtypes), keep the others`,
    },
    { name: 'history', type: 'string', usage: "  --history DIR           the history folder the accepted run's record goes to (default history/)" },
  ],
  positionals: 1,
  env: [],
  exits: [
    '0 written',
    '2 bad usage or bad input, or the update refused (a run with no scenario to accept, from a dirty',
    '  tree, of another profile or scale, of only some scenarios), nothing written',
  ],
  parse: (line) => ({
    command: 'baseline',
    run: line.positionals[0] ?? null,
    target: line.str('baseline'),
    baselines: line.str('baselines') ?? BASELINE_DIR,
    allowDirty: line.flag('allow-dirty'),
    allowPartial: line.flag('allow-partial'),
    merge: line.flag('merge'),
    history: line.str('history') ?? HISTORY_DIR,
  }),
  run: baselineCommand,
};
