import { copyFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { diffString } from 'json-diff';
import {
  BaselineRefusedError,
  baselinePathFor,
  makeBaseline,
  mergeBaselines,
  readBaseline,
  readToleranceOverrides,
  refusalReason,
  type Baseline,
} from '../results/baseline.js';
import { FileWriteError, readRunRecord, RecordFileError, writeJsonAtomic } from '../results/storage.js';
import { appendedLine, appendToHistory, historyRefusal } from '../history/store.js';
import { defaultRunConfig } from '../run-config.js';
import { UsageError } from './args.js';
import { latestRunPath } from './compare.js';
import { EXIT } from '../results/exit.js';
import { commandLine } from '../base/commands.js';

/** What accepting the run changes, metric values only: a json-diff, or '' when nothing changed. */
function valueDiff(existing: Baseline | null, next: Baseline): string {
  const values = (b: Baseline | null) => Object.fromEntries((b?.metrics ?? []).map((m) => [m.id, m.ci ? { value: m.value, ci: m.ci } : m.value]));
  return diffString(values(existing), values(next), { color: process.stdout.isTTY === true, precision: 4 });
}

/**
 * `npm run perf:baseline`: accepts a run as its profile's baseline. Refuses runs with errors,
 * from a dirty tree or with no commit, of another profile or scale, or of only some scenarios; shows the change;
 * keeps the previous baseline as <file>.prev; writes atomically; then appends the run's record
 * to the history (<history>/<profile>/<commit>-<time>.json).
 */
export async function baselineCommand(args: {
  run: string | null;
  target: string | null;
  baselines: string;
  allowDirty: boolean;
  allowPartial: boolean;
  merge: boolean;
  history: string;
}): Promise<number> {
  const runPath = args.run ?? (await latestRunPath());
  if (!runPath) throw new UsageError(`no run record given and none in results/: run ${commandLine('perf')} first`);
  const run = await readRunRecord(runPath);
  const target = args.target ?? baselinePathFor(run.profile.id, run.scale, args.baselines);
  const kind = await stat(target).then(
    (s) => (s.isDirectory() ? 'directory' : 'file'),
    () => 'absent',
  );
  if (kind === 'directory') throw new UsageError(`--baseline ${target} is a directory; name a file, e.g. ${join(target, `${run.profile.id}.json`)}`);
  // A corrupt existing baseline stops here, untouched (RecordFileError: exit 2).
  const existing: Baseline | null = kind === 'file' ? await readBaseline(target) : null;
  const embedded = args.target ? null : defaultRunConfig({ backend: 'auto', requireBackend: null, scale: run.scale }).datasets;
  if (args.merge && !existing) throw new BaselineRefusedError(`not merging ${runPath} into ${target}: there is no baseline there to merge into`);
  const refusal = refusalReason(run, existing, { dirty: args.allowDirty, partial: args.allowPartial || args.merge }, embedded);
  if (refusal) throw new BaselineRefusedError(`not accepting ${runPath} as ${target}: ${refusal}`);
  const accepted = makeBaseline(run, runPath, await readToleranceOverrides(join(args.baselines, 'tolerances.json')));
  // --merge: the run's metrics replace theirs, every other metric of the baseline stays.
  const next: Baseline = args.merge && existing ? mergeBaselines(existing, accepted) : accepted;
  const diff = valueDiff(existing, next);
  console.log(
    existing ? `Changes to ${target}:\n${diff || '(no metric value changed)'}` : `New baseline ${target} for profile ${run.profile.id} (${run.scale}).`,
  );
  try {
    if (existing) await copyFile(target, `${target}.prev`);
    await writeJsonAtomic(target, next);
  } catch (error) {
    throw new RecordFileError(
      `${target}: cannot write the baseline (${(error as NodeJS.ErrnoException).code ?? String(error)}); the previous file is unchanged`,
    );
  }
  console.log(`Wrote ${target}${existing ? ` (previous kept as ${target}.prev)` : ''}.`);
  // --allow-dirty accepted a run with no commit: a baseline, but no place in the commit-ordered history.
  const noHistory = historyRefusal(run);
  if (noHistory) {
    console.log(`History: not appended to ${args.history}: ${noHistory}.`);
    return EXIT.pass;
  }
  try {
    const appended = await appendToHistory(args.history, run);
    console.log(appendedLine(appended));
  } catch (error) {
    if (!(error instanceof FileWriteError)) throw error;
    throw new FileWriteError(`${error.path} (the baseline ${target} is written; the history is not)`, error.code);
  }
  return EXIT.pass;
}
