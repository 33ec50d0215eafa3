import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactMetric, gitRepoWithCommits, recordAt, tempDir } from '../../test/support/history.js';
import { lavapipeProfile } from '../../test/support/run-record.js';
import { appendToHistory, historyFileName, historyProfiles, HistoryRefusedError, orderByCommits, readHistory } from './store.js';

let dir: string;
let commits: string[];
beforeAll(async () => {
  dir = await tempDir('history-store');
  commits = gitRepoWithCommits(dir, 4);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const bytes = (v: number) => [exactMetric('a.bytes', v)];

describe('history store', () => {
  it('names a file by commit and time, and never writes over one', async () => {
    const record = recordAt(commits[0]!, 0, bytes(1));
    expect(historyFileName(record)).toBe(`${commits[0]}-2026-12-01T00-00-00-000Z.json`);
    const history = join(dir, 'h-append');
    const first = await appendToHistory(history, record);
    expect(first).toEqual({ path: join(history, 'webgpu-lavapipe-x64', historyFileName(record)), written: true });
    const second = await appendToHistory(history, { ...record, notes: ['another record, same name'] });
    expect(second.written).toBe(false);
    expect(JSON.parse(await readFile(first.path, 'utf8')).notes).toEqual([]);
    expect(await historyProfiles(history)).toEqual(['webgpu-lavapipe-x64']);
  });

  it("reads the legacy folder's records of this CPU and core count with a profile's new folder (issue 25 #6)", async () => {
    const history = join(dir, 'h-legacy');
    const epyc = { model: 'AMD EPYC', cores: 2 };
    const id = 'webgpu-lavapipe-amd-epyc-2c-x64';
    const on = (profile: ReturnType<typeof lavapipeProfile>, i: number) => ({ ...recordAt(commits[i]!, i, bytes(i)), profile });
    // Two records from before ids named the CPU, one of them from another machine; then one of today.
    await appendToHistory(history, on(lavapipeProfile(epyc), 0));
    const other = await appendToHistory(history, on(lavapipeProfile({ model: 'AMD EPYC', cores: 4 }), 1));
    expect(await historyProfiles(history)).toEqual(['webgpu-lavapipe-x64']);
    const today = await appendToHistory(history, on(lavapipeProfile(epyc, id), 2));
    expect(today.path).toBe(join(history, id, historyFileName(on(lavapipeProfile(epyc, id), 2))));
    // The legacy folder is read through the new one: one profile to choose.
    expect(await historyProfiles(history)).toEqual([id]);
    const read = await readHistory(history, id, dir);
    expect(read.entries.map((e) => [e.record.git.commit, e.record.profile.id])).toEqual([
      [commits[0], id],
      [commits[2], id],
    ]);
    expect(read.skipped).toEqual([
      { path: other.path, reason: `in the legacy folder of ${id}, but it was made on AMD EPYC, 4 cores (amd-epyc-4c), this setup is amd-epyc-2c` },
    ]);
    // The legacy folder read by its own name, as before.
    expect((await readHistory(history, 'webgpu-lavapipe-x64', dir)).entries).toHaveLength(2);
  });

  it('orders records by the first-parent log, not by time; records outside the log go last by time', async () => {
    const history = join(dir, 'h-order');
    // Made in reverse time order: commit 4's record is the oldest.
    for (const [i, c] of commits.entries()) await appendToHistory(history, recordAt(c, 100 - i, bytes(i)));
    await appendToHistory(history, recordAt('f'.repeat(40), 5, bytes(90)));
    // No longer written (see below), but an older history may hold one: read, and ordered last.
    const noCommit = recordAt(null, 1, bytes(91));
    await writeFile(join(history, 'webgpu-lavapipe-x64', 'no-commit-2026-12-01T00-01-00-000Z.json'), JSON.stringify(noCommit));
    await appendToHistory(history, recordAt(commits[1]!, 200, bytes(11)));
    const read = await readHistory(history, 'webgpu-lavapipe-x64', dir);
    expect(read.gitLog).toBe(true);
    expect(read.entries.map((e) => e.record.metrics[0]!.value)).toEqual([0, 1, 11, 2, 3, 91, 90]);
    expect(read.outsideLog).toBe(2);
    expect(read.skipped).toEqual([]);
  });

  it('skips and counts files it cannot use, with the reason', async () => {
    const history = join(dir, 'h-skip');
    const folder = join(history, 'webgpu-lavapipe-x64');
    await appendToHistory(history, recordAt(commits[0]!, 0, bytes(1)));
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'truncated.json'), '{"schemaVersion": 3, "metr');
    await writeFile(join(folder, 'notes.txt'), 'hello');
    const other = recordAt(commits[1]!, 1, bytes(2));
    await writeFile(join(folder, 'other.json'), JSON.stringify({ ...other, profile: { ...other.profile, id: 'cpu-x64' } }));
    const read = await readHistory(history, 'webgpu-lavapipe-x64', dir);
    expect(read.entries).toHaveLength(1);
    expect(read.skipped.map((s) => [s.path.slice(folder.length + 1), s.reason])).toEqual([
      ['notes.txt', 'not a .json file'],
      ['other.json', 'a record of profile cpu-x64, not webgpu-lavapipe-x64'],
      ['truncated.json', expect.stringMatching(/^not valid JSON/)],
    ]);
  });

  it('passes over a FIFO, a dangling link and a folder unopened, counting each with its reason (issue 30)', async () => {
    const history = join(dir, 'h-special');
    const folder = join(history, 'webgpu-lavapipe-x64');
    await appendToHistory(history, recordAt(commits[0]!, 0, bytes(1)));
    execFileSync('mkfifo', [join(folder, 'fifo.json')]);
    await symlink('removed.json', join(folder, 'dangling.json'));
    await mkdir(join(folder, 'sub.json'));
    const read = await readHistory(history, 'webgpu-lavapipe-x64', dir);
    expect(read.entries).toHaveLength(1);
    expect(read.skipped.map((s) => [s.path.slice(folder.length + 1), s.reason])).toEqual([
      ['dangling.json', 'a dangling symbolic link (to removed.json, which does not exist); not opened'],
      ['fifo.json', 'a FIFO (named pipe), not a regular file; not opened'],
      ['sub.json', 'a directory, not a regular file; not opened'],
    ]);
  });

  it('counts a byte-identical copy of a record once, with a note, keeping the file of its own name (issue 30)', async () => {
    const history = join(dir, 'h-copy');
    const folder = join(history, 'webgpu-lavapipe-x64');
    const { path } = await appendToHistory(history, recordAt(commits[1]!, 0, bytes(1)));
    await appendToHistory(history, recordAt(commits[2]!, 1, bytes(2)));
    // ' (copy)' sorts before '.json': the copy is met first, and the record's own name still wins.
    const copy = path.replace(/\.json$/, ' (copy).json');
    await copyFile(path, copy);
    // The same record re-serialized (other bytes) is not a byte copy: both count, as before.
    const reformatted = join(folder, 'reformatted.json');
    await writeFile(reformatted, JSON.stringify(JSON.parse(await readFile(path, 'utf8'))));
    const read = await readHistory(history, 'webgpu-lavapipe-x64', dir);
    expect(read.duplicates).toEqual([{ path: copy, sameAs: path }]);
    expect(read.entries.map((e) => e.path)).toEqual([path, reformatted, join(folder, historyFileName(recordAt(commits[2]!, 1, [])))]);
    expect(read.skipped).toEqual([]);
  });

  it('never writes a no-commit file: a run with no commit is refused, one line, nothing written (issue 25 #5)', async () => {
    const history = join(dir, 'h-no-commit');
    const refused = appendToHistory(history, recordAt(null, 0, bytes(1)));
    await expect(refused).rejects.toBeInstanceOf(HistoryRefusedError);
    await expect(refused).rejects.toThrow(
      `not appending the run to the history ${history}: the run was made outside a git repository or before its first commit, and the history is ordered by commit; commit first and run again`,
    );
    expect(await readdir(history).catch(() => [])).toEqual([]);
    expect(() => historyFileName(recordAt(null, 0, []))).toThrow(HistoryRefusedError);
    // A dirty run has a commit to order it by: kept.
    const dirty = recordAt(commits[0]!, 0, bytes(1));
    expect((await appendToHistory(history, { ...dirty, git: { commit: commits[0]!, dirty: true } })).written).toBe(true);
  });

  it('orders by time alone outside a git checkout', () => {
    const entries = [recordAt('b', 2, []), recordAt('a', 1, [])].map((record) => ({ record }));
    expect(orderByCommits(entries, []).ordered.map((e) => e.record.git.commit)).toEqual(['a', 'b']);
  });
});
