import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { runRecordSchema, SCHEMA_VERSION, type RunRecord } from './schema.js';

/** A results or baseline file that cannot be used; the message names the file and the field. */
export class RecordFileError extends Error {
  override readonly name = 'RecordFileError';
}

/** Writes JSON to a temp file beside the target, then renames it: readers never see half a file. */
export async function writeJsonAtomic(path: string, data: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${process.pid}.${Date.now()}.tmp`);
  await writeFile(temp, `${JSON.stringify(data, null, 2)}\n`);
  await rename(temp, path);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `  - ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`)
    .join('\n');
}

/** Reads and validates a run record; anything else gets a RecordFileError saying what and where. */
export async function readRunRecord(path: string): Promise<RunRecord> {
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
    throw new RecordFileError(`${path}: not valid JSON, the file is corrupt or truncated (${(error as Error).message})`);
  }
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > SCHEMA_VERSION) {
    throw new RecordFileError(
      `${path}: schemaVersion ${version} was written by a newer gpu-transfer-perf (this one reads ${SCHEMA_VERSION}); update the harness`,
    );
  }
  const parsed = runRecordSchema.safeParse(json);
  if (!parsed.success) {
    throw new RecordFileError(`${path}: not a gpu-transfer-perf run record (schema ${SCHEMA_VERSION}):\n${describeIssues(parsed.error)}`);
  }
  return parsed.data;
}

/** Where a run record goes by default: results/<time>-<profile>.json. */
export function defaultRecordPath(record: Pick<RunRecord, 'createdAt' | 'profile'>, dir = 'results'): string {
  const stamp = record.createdAt.replace(/[:.]/g, '-');
  return join(dir, `${stamp}-${record.profile.id}.json`);
}
