import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import { printable } from '../data/media-errors.js';
import { migrateToCurrent, OLDEST_READABLE_VERSION } from './migrate.js';
import { runRecordSchema, SCHEMA_VERSION, type RunRecord } from './schema.js';

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
  ) {
    super(`${path}: cannot write it (${code}); what was there is unchanged`);
  }
}

/**
 * Creates `dir` and any missing parents, one level at a time. Node 20's recursive mkdir spins
 * forever where the kernel answers ENOENT to every mkdir (e.g. below /proc): this fails instead.
 */
export async function ensureDir(dir: string): Promise<void> {
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
  for (const level of missing) await mkdir(level).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? undefined : Promise.reject(error)));
}

/** Writes text (or bytes) to a temp file beside the target, then renames it: readers never see half a file, and a failed write leaves the old one. */
export async function writeTextAtomic(path: string, text: string | Uint8Array): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await ensureDir(dirname(path));
    await writeFile(temp, text, { flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    // A value that cannot be serialized is a defect, not a write failure: keep it as it is.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string') throw new FileWriteError(path, code);
    throw error;
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

/**
 * Reads a JSON file and validates it against `schema`; anything else gets a RecordFileError
 * naming the file and the field. A newer schemaVersion is refused as such, not as garbage.
 */
export async function readJsonFile<T>(path: string, schema: z.ZodType<T>, what: string, options: { versioned: boolean } = { versioned: true }): Promise<T> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new RecordFileError(`${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
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
      `${path}: schemaVersion ${version} was written by an older gpu-transfer-perf (this one reads ${OLDEST_READABLE_VERSION} to ${SCHEMA_VERSION}); run npm run perf again (and npm run perf:baseline to replace an old baseline)`,
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

/** Reads and validates a run record. */
export async function readRunRecord(path: string): Promise<RunRecord> {
  return readJsonFile(path, runRecordSchema, 'gpu-transfer-perf run record');
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

/** The most recently written valid run record in a folder (by modification time), or null; other JSON files (calibration, verdicts) are passed over. */
export async function latestRecordPath(dir = RESULTS_DIR): Promise<string | null> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  } catch {
    return null;
  }
  const stamped = await Promise.all(names.map(async (n) => ({ path: join(dir, n), mtime: (await stat(join(dir, n))).mtimeMs })));
  stamped.sort((a, b) => b.mtime - a.mtime);
  for (const { path } of stamped) {
    try {
      await readRunRecord(path);
      return path;
    } catch {
      // not a run record
    }
  }
  return null;
}
