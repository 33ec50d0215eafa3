import { execFileSync } from 'node:child_process';
import { copyFile, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seededRng } from '../base/random.js';
import { changePointsOf, seriesOf } from '../history/change-points.js';
import { DEFAULT_EDIVISIVE } from '../history/edivisive.js';
import { changeSummary } from '../history/page.js';
import { exactMetric, gitRepoWithCommits, ratioMetric, recordAt, tempDir } from '../../test/support/history.js';
import { appendToHistory, readHistory } from '../history/store.js';
import { parseCommandLine } from './args.js';
import { cli } from '../../test/support/cli.js';
import { historyCommand } from './history.js';

const COMMITS = 16;
/** The speedup falls by 1/1.2 from this commit (0-based) on; the byte count doubles from EXACT_AT. */
const STEP_AT = 9;
const EXACT_AT = 5;

let dir: string;
let commits: string[];
const history = () => join(dir, 'history');

beforeAll(async () => {
  dir = await tempDir('history-cli');
  commits = gitRepoWithCommits(dir, COMMITS);
  const rng = seededRng(19);
  // +-3% uniform process noise, as the ratio metrics move between processes.
  const noisy = (v: number) => v * (1 + 0.06 * (rng.float() - 0.5));
  for (const [i, c] of commits.entries()) {
    const metrics = [
      ratioMetric('mnist-transfer.speedup', noisy(i >= STEP_AT ? 0.8 / 1.2 : 0.8)),
      ratioMetric('coco.speedup.batch', noisy(1.5)),
      exactMetric('mnist-transfer.upload-bytes', i >= EXACT_AT ? 200_704 : 50_176),
      exactMetric('mnist-transfer.payload-bytes', 50_176),
    ];
    // Appended out of order and with times against the git order: the reader must use git.
    await appendToHistory(history(), recordAt(c, (COMMITS - i) * 7, metrics));
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('perf:history on a synthetic history in a real git repository', () => {
  it('finds the injected step at the right commit with p below the level, and none in the flat series', async () => {
    const read = await readHistory(history(), 'webgpu-lavapipe-x64', dir);
    expect(read.entries.map((e) => e.record.git.commit)).toEqual(commits);
    const all = seriesOf(read.entries);
    const step = changePointsOf(all.get('mnist-transfer.speedup')!, DEFAULT_EDIVISIVE, seededRng(1))!;
    expect(step).toHaveLength(1);
    expect(step[0]).toMatchObject({ index: STEP_AT, before: commits[STEP_AT - 1], after: commits[STEP_AT] });
    expect(step[0]!.p!).toBeLessThanOrEqual(DEFAULT_EDIVISIVE.significance);
    expect(step[0]!.step).toBeGreaterThan(0.78);
    expect(step[0]!.step).toBeLessThan(0.88);
    expect(step[0]!.stepCi![0]).toBeLessThan(1 / 1.2);
    expect(step[0]!.stepCi![1]).toBeGreaterThan(1 / 1.2);
    expect(step[0]!.stepCi![1]).toBeLessThan(1);
    expect(changePointsOf(all.get('coco.speedup.batch')!, DEFAULT_EDIVISIVE, seededRng(1))).toEqual([]);
  });

  it('reports every change of an exact metric, with no statistics', async () => {
    const all = seriesOf((await readHistory(history(), 'webgpu-lavapipe-x64', dir)).entries);
    expect(changePointsOf(all.get('mnist-transfer.upload-bytes')!, DEFAULT_EDIVISIVE, seededRng(1))).toEqual([
      { index: EXACT_AT, before: commits[EXACT_AT - 1], after: commits[EXACT_AT], step: 4, stepCi: null, p: null, nBefore: 1, nAfter: 1 },
    ]);
    expect(changePointsOf(all.get('mnist-transfer.payload-bytes')!, DEFAULT_EDIVISIVE, seededRng(1))).toEqual([]);
  });

  it('prints the series and change points and writes a self-contained trend page', async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    const out = join(dir, 'trend.html');
    try {
      const code = await historyCommand({ profile: null, metrics: [], history: history(), out, calibrate: false, force: false }, dir);
      expect(code).toBe(0);
    } finally {
      log.mockRestore();
    }
    const text = lines.join('\n');
    expect(text).toContain('minimum segment 4 records, alpha exponent 1, significance level 0.01, 499 permutations');
    expect(text).toContain(`CHANGE between #${STEP_AT} (${commits[STEP_AT - 1]!.slice(0, 8)}) and #${STEP_AT + 1} (${commits[STEP_AT]!.slice(0, 8)})`);
    expect(text).toContain('mnist-transfer.payload-bytes (exact, B): 16 records; constant 50176');
    expect(text).toContain('2 of 4 series have change points.');
    const page = await readFile(out, 'utf8');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page.match(/<svg/g)).toHaveLength(3); // two ratio series and the exact one that changed
    expect(page).toContain('mnist-transfer.speedup');
    // Self-contained: no script, nothing loaded from elsewhere (the only URLs are SVG's and XLink's namespaces).
    expect(page).not.toMatch(/<script|<link|<img|@import|url\(|src=|href=/i);
    const namespaces = ['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink'];
    expect(page.match(/https?:\/\/[^"'\s<]*/g)?.filter((u) => !namespaces.includes(u)) ?? []).toEqual([]);
  });

  it('says when a ratio series is too short to test', async () => {
    const all = seriesOf((await readHistory(history(), 'webgpu-lavapipe-x64', dir)).entries.slice(0, 5));
    const short = all.get('mnist-transfer.speedup')!;
    expect(changeSummary({ series: short, changePoints: changePointsOf(short, DEFAULT_EDIVISIVE, seededRng(1)) }, 8)).toBe(
      'too few records to test for a change point (it takes 8)',
    );
    expect(changeSummary({ series: short, changePoints: null }, 8)).toMatch(/^not analysed/);
  });

  it('refuses a metric the history does not have', async () => {
    await expect(
      historyCommand({ profile: null, metrics: ['no.such'], history: history(), out: join(dir, 'x.html'), calibrate: false, force: false }, dir),
    ).rejects.toThrow(/--metric no.such/);
  });
});

describe('history on the command line', () => {
  it('parses perf:history, perf --history and perf:baseline --history', () => {
    expect(parseCommandLine(['history', '--metric', 'a.b', '--metric', 'c.d', '--profile', 'p', '--out', 'x.html'], {})).toEqual({
      command: 'history',
      profile: 'p',
      metrics: ['a.b', 'c.d'],
      history: 'history',
      out: 'x.html',
      calibrate: false,
      force: false,
    });
    expect(parseCommandLine(['history', '--calibrate', '--history', 'h'], {})).toMatchObject({ calibrate: true, history: 'h' });
    expect(parseCommandLine(['perf', '--history', 'ci-history'], {})).toMatchObject({ command: 'perf', history: 'ci-history' });
    expect(parseCommandLine(['perf'], {})).toMatchObject({ history: null });
    expect(parseCommandLine(['baseline'], {})).toMatchObject({ history: 'history' });
    expect(() => parseCommandLine(['history', '--scale', 'quick'], {})).toThrow(/Unknown option '--scale'/);
  });

  it('npm run perf:history prints the change point; perf:baseline appends the accepted run once', async () => {
    const shown = await cli(['history', '--history', history(), '--metric', 'mnist-transfer.speedup', '--out', join(dir, 'cli.html')], dir);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`CHANGE between #${STEP_AT} (${commits[STEP_AT - 1]!.slice(0, 8)})`);
    expect(shown.stdout).toContain(`Trend page: ${join(dir, 'cli.html')}`);

    const run = recordAt(commits.at(-1)!, 1000, [exactMetric('mnist-transfer.upload-bytes', 200_704)]);
    await writeFile(join(dir, 'run.json'), JSON.stringify(run));
    const accept = ['baseline', join(dir, 'run.json'), '--baseline', join(dir, 'accepted.json'), '--history', join(dir, 'from-baseline')];
    const first = await cli(accept, dir);
    expect(first.code).toBe(0);
    const file = join(dir, 'from-baseline', 'webgpu-lavapipe-x64', `${commits.at(-1)}-${run.createdAt.replace(/[:.]/g, '-')}.json`);
    expect(first.stdout).toContain(`History: ${file}`);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(run);
    const again = await cli(accept, dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('is already there; left as it is.');
    expect(await readdir(join(dir, 'from-baseline', 'webgpu-lavapipe-x64'))).toHaveLength(1);
  });

  it('perf:history passes over a dangling link and a FIFO with a note, and counts a copied record once (issue 30)', async () => {
    const odd = join(dir, 'odd-history');
    const folder = join(odd, 'webgpu-lavapipe-x64');
    const written: Array<{ path: string }> = [];
    for (const [i, c] of commits.slice(0, 3).entries()) written.push(await appendToHistory(odd, recordAt(c, i, [exactMetric('a.bytes', 1)])));
    await copyFile(written[0]!.path, join(folder, 'copy-of-first.json'));
    await symlink('removed.json', join(folder, 'dangling.json'));
    execFileSync('mkfifo', [join(folder, 'fifo.json')]);
    const shown = await cli(['history', '--history', odd, '--out', join(dir, 'odd.html')], dir);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`History of webgpu-lavapipe-x64: 3 records in ${folder}.`);
    expect(shown.stdout).toContain(`  ${join(folder, 'dangling.json')}: a dangling symbolic link (to removed.json, which does not exist); not opened`);
    expect(shown.stdout).toContain(`  ${join(folder, 'fifo.json')}: a FIFO (named pipe), not a regular file; not opened`);
    expect(shown.stdout).toContain(
      `Counted once: 1 file(s) with the same bytes as another record:\n  ${join(folder, 'copy-of-first.json')}: a copy of ${written[0]!.path}`,
    );
    expect(shown.stderr).toBe('');
  });
});
