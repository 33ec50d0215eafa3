import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { link, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ensureDirDurable, FileWriteError, parseRunRecord, readRegularFile, regularFilesOf, syncDir, writeNewFileSynced } from '../results/storage.js';
import type { RunRecord } from '../results/schema.js';
import { legacyMismatch, profileFilePath } from '../results/profile-files.js';
import { legacyIdOf } from '../backend/fingerprint.js';

/**
 * The history store: plain run records under <dir>/<profile>/<commit>-<time>.json (asv's layout
 * idea), appended by perf:baseline and `perf --history DIR`, never rewritten; ordered by git
 * (first-parent log) when read.
 */

/** The folder history goes to by default. */
export const HISTORY_DIR = 'history';

/**
 * A record's file name in its profile's folder: <commit>-<createdAt with ':' and '.' as '-'>.json.
 * A record with no commit has none: HistoryRefusedError (see historyRefusal).
 */
export function historyFileName(record: Pick<RunRecord, 'git' | 'createdAt'>): string {
  const refusal = historyRefusal(record);
  if (refusal !== null) throw new HistoryRefusedError(`the run has no place in the history: ${refusal}`);
  return `${record.git.commit}-${record.createdAt.replace(/[:.]/g, '-')}.json`;
}

/** Where a record goes in the history at `dir`: <dir>/<profile>/<file name>. */
export function historyPath(dir: string, record: Pick<RunRecord, 'git' | 'createdAt' | 'profile'>): string {
  return join(profileFilePath(dir, record.profile.id, 'history'), historyFileName(record));
}

/** A run the history must not hold: one made outside a git repository or before its first commit. */
export class HistoryRefusedError extends Error {
  override readonly name = 'HistoryRefusedError';
}

/**
 * Why a run cannot go to the history, or null when it can. The history is ordered by the
 * first-parent git log: a run with no commit has no place in it (it used to be written as
 * no-commit-*.json and shown last, out of order), so it is refused, as perf:baseline refuses a
 * dirty run. Dirty runs are kept (marked * on the console): their commit still orders them.
 */
export function historyRefusal(record: Pick<RunRecord, 'git'>): string | null {
  return record.git.commit === null
    ? 'the run was made outside a git repository or before its first commit, and the history is ordered by commit; commit first and run again'
    : null;
}

/** What an append did: wrote the file, or found that record's file already there (left as it is). */
export interface AppendResult {
  readonly path: string;
  readonly written: boolean;
}

/** What an append did, in one line for the console. */
export const appendedLine = (a: AppendResult) => (a.written ? `History: ${a.path}` : `History: ${a.path} is already there; left as it is.`);

/**
 * Appends a run record to the history at `dir`, never over an existing file, durably (as
 * writeTextAtomic): written to a hidden temp file and fsynced, then hard-linked to its name, which
 * fails if a file is there (no check-then-write race), then the temp name removed and the folder
 * fsynced (as the parent of any folder made for it), so the record survives a power cut whole.
 */
export async function appendToHistory(dir: string, record: RunRecord): Promise<AppendResult> {
  const refusal = historyRefusal(record);
  if (refusal !== null) throw new HistoryRefusedError(`not appending the run to the history ${dir}: ${refusal}`);
  const path = historyPath(dir, record);
  const folder = dirname(path);
  const temp = join(folder, `.${basename(path)}.${process.pid}.${Date.now()}.pending`);
  const failed = (error: unknown, inPlace = false) => {
    const code = (error as NodeJS.ErrnoException).code;
    return new FileWriteError(path, typeof code === 'string' ? code : String(error), inPlace);
  };
  let written = false;
  try {
    await ensureDirDurable(folder);
    // One line, unindented: history only grows and is read by the harness, never reviewed by eye, and
    // the tracked tree travels to a GPU machine whose calls carry 64 MiB (src/kit/contents.test.ts).
    await writeNewFileSynced(temp, `${JSON.stringify(record)}\n`);
    written = await link(temp, path).then(
      () => true,
      (error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? false : Promise.reject(error)),
    );
    await rm(temp, { force: true });
    // The new name (and the temp name's removal) reach the disk; nothing changed where the name was there.
    if (written) await syncDir(folder).catch((error: unknown) => Promise.reject(failed(error, true)));
    return { path, written };
  } catch (error) {
    if (error instanceof FileWriteError) throw error;
    throw failed(error);
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/** One record read from the history, with its file. */
export interface HistoryEntry {
  readonly path: string;
  readonly record: RunRecord;
}

/** A file of the history that could not be used, and why. */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

/** A file with the same bytes as one already read: counted once. */
export interface DuplicateFile {
  readonly path: string;
  /** The file that is counted. */
  readonly sameAs: string;
}

/** What was read from one profile's folder of the history. */
export interface HistoryRead {
  /** Oldest first: git first-parent order, then the records whose commit is not in the log, by createdAt. */
  readonly entries: readonly HistoryEntry[];
  readonly skipped: readonly SkippedFile[];
  /** Byte-identical copies of a record (a copied file under another name): not counted again. */
  readonly duplicates: readonly DuplicateFile[];
  /** How many entries (at the end) have a commit that is not in the first-parent log, or none. */
  readonly outsideLog: number;
  /** Whether a git log could be read at all (false: everything is ordered by createdAt). */
  readonly gitLog: boolean;
}

/** The commits of `git log --first-parent` of HEAD in `cwd`, oldest first; null outside a git checkout. */
export function firstParentCommits(cwd: string): string[] | null {
  try {
    const out = execFileSync('git', ['log', '--first-parent', '--format=%H'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1 << 28,
    });
    return out
      .split('\n')
      .filter((line) => line !== '')
      .reverse();
  } catch {
    return null;
  }
}

/**
 * Orders entries by the position of their commit in `commits` (oldest first), records of one
 * commit by createdAt; records whose commit is not there (or null) go last, by createdAt.
 */
export function orderByCommits<T extends { record: Pick<RunRecord, 'git' | 'createdAt'> }>(
  entries: readonly T[],
  commits: readonly string[],
): { ordered: T[]; outsideLog: number } {
  const position = new Map(commits.map((c, i) => [c, i]));
  const rank = (e: T) => (e.record.git.commit === null ? undefined : position.get(e.record.git.commit));
  const time = (e: T) => Date.parse(e.record.createdAt);
  const ordered = [...entries].sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    if (ra !== rb) return ra === undefined ? 1 : rb === undefined ? -1 : ra - rb;
    return time(a) - time(b);
  });
  return { ordered, outsideLog: entries.filter((e) => rank(e) === undefined).length };
}

/**
 * The profiles (sub-folders) of the history at `dir`; [] when there is none. A folder named by a
 * legacy id ('webgpu-lavapipe-x64', before the CPU was part of it) is not listed beside a
 * profile that reads it (see readHistory): its records of that machine are that profile's.
 */
export async function historyProfiles(dir: string): Promise<string[]> {
  const names = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name);
  const readByAnother = new Set(names.flatMap((n) => legacyIdOf(n)?.legacyId ?? []));
  return names.filter((n) => !readByAnother.has(n)).sort();
}

/**
 * Reads every record of one profile's history (schema-validated), skipping and counting files
 * that cannot be used, with the reason (not JSON, invalid, another profile's record; a FIFO,
 * socket, device or dangling link, never opened); counts a byte-identical copy of a record
 * once (a copy would weigh its commit double in the change-point search), keeping the file
 * with the record's own name (historyFileName) else the first by name; orders them by the
 * first-parent git log of `gitDir` (see orderByCommits). For a profile whose id gained its CPU
 * (backend/fingerprint.ts legacyIdOf), the legacy folder's records made on this CPU with this
 * core count are read too (as this profile's), the others skipped with why.
 */
export async function readHistory(dir: string, profile: string, gitDir: string): Promise<HistoryRead> {
  const legacy = legacyIdOf(profile)?.legacyId;
  const folders = [profile, ...(legacy ? [legacy] : [])];
  const skipped: SkippedFile[] = [];
  const read: Array<HistoryEntry & { digest: string }> = [];
  for (const name of folders) {
    const folder = profileFilePath(dir, name, 'history');
    const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
    const listed = await regularFilesOf(folder, names);
    skipped.push(...listed.skipped);
    for (const { path } of listed.files) {
      if (!path.endsWith('.json')) {
        skipped.push({ path, reason: 'not a .json file' });
        continue;
      }
      try {
        const bytes = await readRegularFile(path);
        const record = parseRunRecord(path, bytes.toString('utf8'));
        const why =
          name === profile
            ? record.profile.id === profile
              ? null
              : `a record of profile ${record.profile.id}, not ${profile}`
            : legacyMismatch(profile, record.profile);
        if (why !== null) skipped.push({ path, reason: name === profile ? why : `in the legacy folder of ${profile}, but ${why}` });
        else {
          // A legacy folder's record of this machine is this profile's (its id as made today).
          const own = name === profile ? record : { ...record, profile: { ...record.profile, id: profile } };
          read.push({ path, record: own, digest: createHash('sha256').update(bytes).digest('hex') });
        }
      } catch (error) {
        const message = (error as Error).message;
        skipped.push({ path, reason: message.startsWith(path) ? message.slice(path.length + 2) : message });
      }
    }
  }
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const { kept, duplicates } = onceEach(read);
  const commits = firstParentCommits(gitDir);
  const { ordered, outsideLog } = orderByCommits(kept, commits ?? []);
  return { entries: ordered.map(({ path, record }) => ({ path, record })), skipped, duplicates, outsideLog, gitLog: commits !== null };
}

/** One entry per distinct content: the copy named as the record's own file name wins, else the first by name. */
function onceEach<T extends HistoryEntry & { digest: string }>(read: readonly T[]): { kept: T[]; duplicates: DuplicateFile[] } {
  const own = (e: T) => historyRefusal(e.record) === null && basename(e.path) === historyFileName(e.record);
  const chosen = new Map<string, T>();
  for (const e of read) {
    const other = chosen.get(e.digest);
    if (!other || (own(e) && !own(other))) chosen.set(e.digest, e);
  }
  const kept = read.filter((e) => chosen.get(e.digest) === e);
  const duplicates = read.filter((e) => chosen.get(e.digest) !== e).map((e) => ({ path: e.path, sameAs: chosen.get(e.digest)!.path }));
  return { kept, duplicates };
}
