import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testRunRecord } from '../../test/support/run-record.js';
import { readRunRecord } from '../results/storage.js';
import { keepingRecord, writeRecordSafely } from './perf.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const temp = tempFolder('gtp-runner-perf-');

describe('writeRecordSafely', () => {
  it('writes where asked when it can', async () => {
    const path = temp.at('run.json');
    const written = await writeRecordSafely(path, testRunRecord([]));
    expect(written).toEqual({ path, fallbackFrom: null, reason: null });
    await expect(readRunRecord(path)).resolves.toMatchObject({ metrics: [] });
  });

  it('falls back to a new folder of its own in the temp folder, never over an existing file', async () => {
    // A user's file with the record's name in the temp folder must survive the fallback.
    const name = `gtp-fallback-${process.pid}.json`;
    const theirs = join(tmpdir(), name);
    await writeFile(theirs, 'not yours');
    try {
      // A path below a regular file cannot be written (ENOTDIR), as a full disk cannot.
      const blocked = temp.at('a-file');
      await writeFile(blocked, '');
      const written = await writeRecordSafely(join(blocked, name), testRunRecord([]));
      expect(written.fallbackFrom).toBe(join(blocked, name));
      expect(written.reason).toMatch(/^E[A-Z]+$/);
      expect(basename(written.path)).toBe(name);
      expect(written.path).not.toBe(theirs);
      expect(dirname(dirname(written.path))).toBe(tmpdir());
      await expect(readRunRecord(written.path)).resolves.toMatchObject({ metrics: [] });
      expect(await readFile(theirs, 'utf8')).toBe('not yours');
      await rm(dirname(written.path), { recursive: true, force: true });
    } finally {
      await rm(theirs, { force: true });
    }
  });
});

describe('keepingRecord', () => {
  it('writes the measured record when what follows the measurement throws, and says where', async () => {
    const path = temp.at('kept.json');
    const failing = keepingRecord(path, testRunRecord([]), () => Promise.reject(new Error('vitest did not start')));
    await expect(failing).rejects.toThrow(`vitest did not start; the run record was kept at ${path}`);
    await expect(readRunRecord(path)).resolves.toMatchObject({ metrics: [] });
  });

  it('writes nothing when it succeeds (the caller writes the judged record)', async () => {
    const path = temp.at('not-kept.json');
    await expect(keepingRecord(path, testRunRecord([]), async () => 7)).resolves.toBe(7);
    await expect(readFile(path)).rejects.toThrow(/ENOENT/);
  });
});
