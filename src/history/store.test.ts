import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactMetric, gitRepoWithCommits, recordAt, tempDir } from '../../test/support/history.js';
import { appendToHistory, historyFileName, historyProfiles, orderByCommits, readHistory } from './store.js';

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

  it('orders records by the first-parent log, not by time; records outside the log go last by time', async () => {
    const history = join(dir, 'h-order');
    // Made in reverse time order: commit 4's record is the oldest.
    for (const [i, c] of commits.entries()) await appendToHistory(history, recordAt(c, 100 - i, bytes(i)));
    await appendToHistory(history, recordAt('f'.repeat(40), 5, bytes(90)));
    await appendToHistory(history, recordAt(null, 1, bytes(91)));
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

  it('orders by time alone outside a git checkout', () => {
    const entries = [recordAt('b', 2, []), recordAt('a', 1, [])].map((record) => ({ record }));
    expect(orderByCommits(entries, []).ordered.map((e) => e.record.git.commit)).toEqual(['a', 'b']);
  });
});
