import { NotRegularFileError, readRegularFile } from '../base/regular-file.js';
import type { z } from 'zod';
import { DOCTOR_REPORT_VERSIONS, type DoctorReport, doctorReportSchema } from './schema.js';

/** A doctor report or envelope that cannot be used; the message names the file and the field. */
export class DoctorFileError extends Error {
  override readonly name = 'DoctorFileError';
}

/**
 * Reads a versioned doctor JSON file (report or envelope) and validates it. Another version is
 * refused as such, not as garbage. (src/results/storage.ts's reader is tied to run-record
 * versions and migrations, so doctor files have their own.)
 */
export async function readDoctorJson<T>(path: string, schema: z.ZodType<T>, what: string, version: number | readonly number[]): Promise<T> {
  let json: unknown;
  try {
    json = JSON.parse((await readRegularFile(path)).toString('utf8'));
  } catch (error) {
    // A FIFO or device is never opened (the read would block or never end).
    if (error instanceof NotRegularFileError) throw new DoctorFileError(`${path}: ${error.reason}, so not read; name a ${what} file`);
    const e = error as NodeJS.ErrnoException;
    throw new DoctorFileError(`${path}: ${e.code ? `cannot read it (${e.code})` : `not valid JSON (${e.message})`}`);
  }
  const got = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  const versions: readonly number[] = typeof version === 'number' ? [version] : version;
  if (typeof got !== 'number' || !versions.includes(got)) {
    throw new DoctorFileError(`${path}: not a ${what} of schemaVersion ${versions.join(' or ')} (it has ${JSON.stringify(got ?? null)})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new DoctorFileError(`${path}: not a valid ${what}: ${first ? `${first.path.join('.') || '(top level)'}: ${first.message}` : 'invalid'}`);
  }
  return parsed.data;
}

/** Reads and validates a report written by `npm run doctor -- --json FILE`. */
export function readDoctorReport(path: string): Promise<DoctorReport> {
  return readDoctorJson(path, doctorReportSchema, 'gpu-transfer-perf doctor report', DOCTOR_REPORT_VERSIONS);
}
