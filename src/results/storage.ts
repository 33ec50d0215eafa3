import { lstat, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { entryKind, NotRegularFileError, notRegularReason, readRegularFile } from '../base/regular-file.js';
import { basename, dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import { printable } from '../data/media-errors.js';
import { migrateToCurrent, OLDEST_READABLE_VERSION } from './migrate.js';
import { runRecordSchema, SCHEMA_VERSION, type RunRecord } from './schema.js';
import { commandLine } from '../base/commands.js';

/** A results or baseline file that cannot be used; the message names the file and the field. */
export class RecordFileError extends Error {
  override readonly name = 'RecordFileError';
}

/** A file that could not be written (disk full, read-only, folder gone): the message names it and the cause; what was there is unchanged. */
export class FileWriteError extends Error {
  override readonly name = 'FileWriteError';
  constructor(
    readonly path: string,
    readonly code: string,
    /** Where the new content is in place already, but its folder could not be synced to disk (syncDir). */
    inPlace = false,
  ) {
    super(
      inPlace
        ? `${path}: written, but its folder could not be synced to disk (${code}); the file may not survive a power cut`
        : `${path}: cannot write it (${code}); what was there is unchanged`,
    );
  }
}

/**
 * Creates `dir` and any missing parents, one level at a time. Node 20's recursive mkdir spins
 * forever where the kernel answers ENOENT to every mkdir (e.g. below /proc): this fails instead.
 * Returns the folders it made, outermost first (a durable write syncs their parents: syncDir).
 */
export async function ensureDir(dir: string): Promise<string[]> {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    const found = await stat(at).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : Promise.reject(error)));
    if (found) break;
    missing.unshift(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  const made: string[] = [];
  for (const level of missing) {
    const created = await mkdir(level).then(
      () => true,
      (error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? false : Promise.reject(error)),
    );
    if (created) made.push(level);
  }
  return made;
}

/**
 * Where fsync of a folder is refused by the platform, not failed: Windows cannot open a folder as
 * a file (EISDIR, EPERM), and some file systems answer fsync of a folder with EINVAL (Linux's
 * older FUSE or CIFS mounts) or EPERM. A rename there is as durable as the platform makes it.
 */
const DIR_SYNC_REFUSED = new Set(['EINVAL', 'EISDIR', 'EPERM']);

/**
 * fsyncs the folder `dir` (opened read-only), so that the entries created, renamed, linked or
 * removed in it survive a power cut: without it the journal may hold the rename but not the
 * folder's new entry, or the reverse (see fsync(2): "Calling fsync() does not necessarily ensure
 * that the entry in the directory containing the file has also reached disk").
 */
export async function syncDir(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    if (DIR_SYNC_REFUSED.has((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!DIR_SYNC_REFUSED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle.close();
  }
}

/** Writes `text` to a new file `path` (failing if one is there) and fsyncs it: its bytes are on disk before any rename or link makes them visible. */
export async function writeNewFileSynced(path: string, text: string | Uint8Array): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * ensureDir, durably: each folder it makes is an entry of its parent, and that parent is fsynced
 * (innermost first), so an output's folder made now (results/, history/<profile>/) survives a
 * power cut with it. Costs nothing where the folder was there.
 */
export async function ensureDirDurable(dir: string): Promise<void> {
  const made = await ensureDir(dir);
  for (const level of made.reverse()) await syncDir(dirname(level));
}

/** One file of a durable write (writeFilesAtomic). */
export interface FileToWrite {
  readonly path: string;
  readonly text: string | Uint8Array;
}

const errorCodeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Writes text (or bytes) durably and atomically: to a temp file beside the target, fsynced, then
 * renamed over the target, then the folder fsynced (and the parents of any folder made for it).
 * Readers never see half a file, a failed write leaves the old one, and after a power cut the
 * name holds the old content or the whole new one, never an empty or short file (the journal
 * may otherwise commit the rename before the data: SQLite's and PostgreSQL's fsync notes,
 * LWN's "ext4 and data loss"). Every output under results/, baselines/, history/ and every
 * envelope is written through this (writeJsonAtomic, output-guard's writeOutput, writeFilesAtomic
 * for several at once, history/store.ts's appendToHistory with a link in place of the rename).
 */
export async function writeTextAtomic(path: string, text: string | Uint8Array): Promise<void> {
  await writeFilesAtomic([{ path, text }]);
}

/**
 * Writes several files as writeTextAtomic writes one, with the fsyncs batched: every temp file
 * is written and fsynced at once (the file system commits them together: a run's dozen charts
 * cost about one fsync, not twelve), then each is renamed in order, then each folder is fsynced
 * once. A file that fails is a FileWriteError naming it; those renamed before it stay written
 * (each whole), the rest are not (their temp files removed).
 */
export async function writeFilesAtomic(files: readonly FileToWrite[]): Promise<void> {
  if (files.length === 0) return;
  const stamp = `${process.pid}.${Date.now()}`;
  const temps = files.map((f, i) => join(dirname(f.path), `.${basename(f.path)}.${stamp}${files.length > 1 ? `.${i}` : ''}.tmp`));
  const renamedIn = new Set<string>();
  let at = -1;
  try {
    for (const folder of new Set(files.map((f) => dirname(f.path)))) await ensureDirDurable(folder);
    // All written and fsynced before any is renamed; the first failure (in order) is the one named.
    const wrote = await Promise.allSettled(files.map((f, i) => writeNewFileSynced(temps[i]!, f.text)));
    const failed = wrote.findIndex((w) => w.status === 'rejected');
    if (failed >= 0) {
      at = failed;
      throw (wrote[failed] as PromiseRejectedResult).reason;
    }
    for (const [i, f] of files.entries()) {
      at = i;
      // A rename replaces whatever entry is there: never a FIFO, socket, device or folder (the output guard refused them up front; this holds if one appeared since).
      const there = await lstat(f.path).catch(() => null);
      if (there && !there.isFile() && !there.isSymbolicLink())
        throw Object.assign(new Error('not a regular file'), { code: `${entryKind(there)}, not a regular file` });
      await rename(temps[i]!, f.path);
      renamedIn.add(dirname(f.path));
    }
    at = -1;
  } catch (error) {
    await Promise.all(temps.map((t) => rm(t, { force: true }).catch(() => undefined)));
    // What was renamed is made durable still (best effort: the error to report is the first one).
    await Promise.all([...renamedIn].map((d) => syncDir(d).catch(() => undefined)));
    const code = errorCodeOf(error);
    // A value that cannot be serialized is a defect, not a write failure: keep it as it is.
    if (typeof code === 'string') throw new FileWriteError(files[Math.max(0, at)]!.path, code);
    throw error;
  }
  try {
    await Promise.all([...renamedIn].map((d) => syncDir(d)));
  } catch (error) {
    // The new content is in place; only a folder's sync failed (EIO): said as such, not "unchanged".
    const code = errorCodeOf(error);
    throw new FileWriteError(files[0]!.path, typeof code === 'string' ? code : String(error), true);
  }
}

/** Writes JSON atomically (see writeTextAtomic). */
export async function writeJsonAtomic(path: string, data: unknown): Promise<void> {
  await writeTextAtomic(path, `${JSON.stringify(data, null, 2)}\n`);
}

/** The first schema problems on one line: 'metrics.0.kind: Invalid option; ... (and 3 more)'. */
function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`);
  const more = error.issues.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

// Only regular files are opened (a FIFO would block, a device never end): the one check, shared with the image-folder reader.
export { entryKind, NotRegularFileError, readRegularFile } from '../base/regular-file.js';

/** An entry of a folder that a reader passed over, and why. */
export interface SkippedEntry {
  readonly path: string;
  readonly reason: string;
}

/** One line for the console about a passed-over entry. */
export const skippedNote = (s: SkippedEntry) => `note: skipped ${s.path}: ${s.reason}`;

/**
 * Sorts the entries `names` of `dir` into regular files (symlinks to one included) and the rest:
 * a FIFO, socket, device, folder, dangling or looping link is passed over with its reason and
 * never opened; an entry that cannot be examined (EACCES) too.
 */
export async function regularFilesOf(
  dir: string,
  names: readonly string[],
): Promise<{ files: Array<{ path: string; mtimeMs: number }>; skipped: SkippedEntry[] }> {
  const files: Array<{ path: string; mtimeMs: number }> = [];
  const skipped: SkippedEntry[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const reason = await notRegularReason(path);
      if (reason) skipped.push({ path, reason: `${reason.reason}; not opened` });
      else files.push({ path, mtimeMs: (await stat(path)).mtimeMs });
    } catch (error) {
      // Removed since the listing (ENOENT) or not ours to read (EACCES): passed over, said why.
      skipped.push({ path, reason: `cannot be examined (${(error as NodeJS.ErrnoException).code ?? String(error)})` });
    }
  }
  return { files, skipped };
}

/** The bytes of a JSON file to read, or a RecordFileError naming the file and why it cannot be read. */
async function readForJson(path: string, what: string): Promise<string> {
  try {
    return (await readRegularFile(path)).toString('utf8');
  } catch (error) {
    if (error instanceof NotRegularFileError) throw new RecordFileError(`${path}: ${error.reason}, so not read; name a ${what} file`);
    throw new RecordFileError(`${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/**
 * Reads a JSON file and validates it against `schema`; anything else gets a RecordFileError
 * naming the file and the field. A newer schemaVersion is refused as such, not as garbage.
 * Only a regular file is opened (readRegularFile).
 */
export async function readJsonFile<T>(path: string, schema: z.ZodType<T>, what: string, options: { versioned: boolean } = { versioned: true }): Promise<T> {
  return parseJsonText(path, await readForJson(path, what), schema, what, options);
}

/** Validates the text of a JSON file read already (readJsonFile, or a reader that also needs the bytes); errors as readJsonFile's. */
export function parseJsonText<T>(path: string, text: string, schema: z.ZodType<T>, what: string, options: { versioned: boolean } = { versioned: true }): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // JSON.parse quotes the file: a binary one would put raw bytes (NUL, newlines) in the one-line error.
    throw new RecordFileError(`${path}: not valid JSON, the file is corrupt or truncated (${printable((error as Error).message, 160)})`);
  }
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > SCHEMA_VERSION) {
    throw new RecordFileError(
      `${path}: schemaVersion ${version} was written by a newer gpu-transfer-perf (this one reads ${SCHEMA_VERSION}); update the harness`,
    );
  }
  if (typeof version === 'number' && version < OLDEST_READABLE_VERSION) {
    throw new RecordFileError(
      `${path}: schemaVersion ${version} was written by an older gpu-transfer-perf (this one reads ${OLDEST_READABLE_VERSION} to ${SCHEMA_VERSION}); run ${commandLine('perf')} again (and ${commandLine('baseline')} to replace an old baseline)`,
    );
  }
  if (options.versioned && typeof version !== 'number') {
    throw new RecordFileError(`${path}: not a ${what}: it has no schemaVersion (another tool's JSON?)`);
  }
  const parsed = schema.safeParse(options.versioned ? migrateToCurrent(json) : json);
  if (!parsed.success) {
    throw new RecordFileError(`${path}: not a valid ${what} (schema ${SCHEMA_VERSION}): ${describeIssues(parsed.error)}`);
  }
  return parsed.data;
}

const RUN_RECORD = 'gpu-transfer-perf run record';

/** Reads and validates a run record. */
export async function readRunRecord(path: string): Promise<RunRecord> {
  return readJsonFile(path, runRecordSchema, RUN_RECORD);
}

/** Validates a run record's text, read already from `path` (as readRunRecord). */
export function parseRunRecord(path: string, text: string): RunRecord {
  return parseJsonText(path, text, runRecordSchema, RUN_RECORD);
}

/** A file beside a run record: `results/x.json` with `.html` gives `results/x.html`. */
export function besideRecord(recordPath: string, extension: string): string {
  return recordPath.endsWith('.json') ? `${recordPath.slice(0, -'.json'.length)}${extension}` : `${recordPath}${extension}`;
}

/** The folder run records go to by default. */
export const RESULTS_DIR = 'results';

/** Where a run record goes by default: results/<time>-<profile>.json. */
export function defaultRecordPath(record: Pick<RunRecord, 'createdAt' | 'profile'>, dir = RESULTS_DIR): string {
  const stamp = record.createdAt.replace(/[:.]/g, '-');
  return join(dir, `${stamp}-${record.profile.id}.json`);
}

/** The latest run record of a folder, and the entries passed over on the way (see latestRecord). */
export interface LatestRecord {
  readonly path: string | null;
  /** .json entries that are not regular files (FIFO, socket, device, folder, dangling link): never opened. */
  readonly skipped: readonly SkippedEntry[];
}

/**
 * The most recently written valid run record in a folder (by modification time), or null; other
 * JSON files (calibration, verdicts) are passed over quietly, and entries that are not regular
 * files are passed over unopened and listed (a FIFO named x.json would block a read forever).
 */
export async function latestRecord(dir = RESULTS_DIR): Promise<LatestRecord> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  } catch {
    return { path: null, skipped: [] };
  }
  const { files, skipped } = await regularFilesOf(dir, names);
  files.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { path } of files) {
    try {
      await readRunRecord(path);
      return { path, skipped };
    } catch {
      // not a run record
    }
  }
  return { path: null, skipped };
}

/** The path of latestRecord, for a command that prints no notes. */
export async function latestRecordPath(dir = RESULTS_DIR): Promise<string | null> {
  return (await latestRecord(dir)).path;
}
