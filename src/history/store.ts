import { execFileSync } from 'node:child_process';
import { link, readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { FileWriteError, readRunRecord, writeJsonAtomic } from '../results/storage.js';
import type { RunRecord } from '../results/schema.js';

/**
 * The history store: plain run records under <dir>/<profile>/<commit>-<time>.json (asv's layout
 * idea), appended by perf:baseline and `perf --history DIR`, never rewritten; ordered by git
 * (first-parent log) when read.
 */

/** The folder history goes to by default. */
export const HISTORY_DIR = 'history';

/** The commit part of a file name when the record has none (run outside a git checkout). */
const NO_COMMIT = 'no-commit';

/** A record's file name in its profile's folder: <commit>-<createdAt with ':' and '.' as '-'>.json. */
export function historyFileName(record: Pick<RunRecord, 'git' | 'createdAt'>): string {
  return `${record.git.commit ?? NO_COMMIT}-${record.createdAt.replace(/[:.]/g, '-')}.json`;
}

/** Where a record goes in the history at `dir`: <dir>/<profile>/<file name>. */
export function historyPath(dir: string, record: Pick<RunRecord, 'git' | 'createdAt' | 'profile'>): string {
  return join(dir, record.profile.id, historyFileName(record));
}

/** What an append did: wrote the file, or found that record's file already there (left as it is). */
export interface AppendResult {
  readonly path: string;
  readonly written: boolean;
}

/** What an append did, in one line for the console. */
export const appendedLine = (a: AppendResult) => (a.written ? `History: ${a.path}` : `History: ${a.path} is already there; left as it is.`);

/**
 * Appends a run record to the history at `dir`, never over an existing file: written atomically
 * to a hidden temp file (writeJsonAtomic), then hard-linked to its name, which fails if a file is
 * there (no check-then-write race), then the temp name removed.
 */
export async function appendToHistory(dir: string, record: RunRecord): Promise<AppendResult> {
  const path = historyPath(dir, record);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.pending`);
  await writeJsonAtomic(temp, record);
  try {
    await link(temp, path);
    return { path, written: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return { path, written: false };
    throw new FileWriteError(path, typeof code === 'string' ? code : String(error));
  } finally {
    await rm(temp, { force: true });
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

/** What was read from one profile's folder of the history. */
export interface HistoryRead {
  /** Oldest first: git first-parent order, then the records whose commit is not in the log, by createdAt. */
  readonly entries: readonly HistoryEntry[];
  readonly skipped: readonly SkippedFile[];
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

/** The profiles (sub-folders) of the history at `dir`; [] when there is none. */
export async function historyProfiles(dir: string): Promise<string[]> {
  const names = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return names
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort();
}

/**
 * Reads every record of one profile's history (schema-validated), skipping and counting files
 * that cannot be used, with the reason (not JSON, invalid, another profile's record); orders
 * them by the first-parent git log of `gitDir` (see orderByCommits).
 */
export async function readHistory(dir: string, profile: string, gitDir: string): Promise<HistoryRead> {
  const folder = join(dir, profile);
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
  const entries: HistoryEntry[] = [];
  const skipped: SkippedFile[] = [];
  for (const name of names) {
    const path = join(folder, name);
    if (!name.endsWith('.json') || !(await stat(path)).isFile()) {
      skipped.push({ path, reason: 'not a .json file' });
      continue;
    }
    try {
      const record = await readRunRecord(path);
      if (record.profile.id !== profile) skipped.push({ path, reason: `a record of profile ${record.profile.id}, not ${profile}` });
      else entries.push({ path, record });
    } catch (error) {
      skipped.push({ path, reason: (error as Error).message.startsWith(path) ? (error as Error).message.slice(path.length + 2) : (error as Error).message });
    }
  }
  const commits = firstParentCommits(gitDir);
  const { ordered, outsideLog } = orderByCommits(entries, commits ?? []);
  return { entries: ordered, skipped, outsideLog, gitLog: commits !== null };
}
