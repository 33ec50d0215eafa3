import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BisectResult } from '../results/ab-result.js';
import { nextProbe, probeOutcome } from './bisect.js';

const run = promisify(execFile);

describe('nextProbe', () => {
  it('halves the open range until the first worse index follows a same one', () => {
    // 8 commits, the 6th (index 5) the first worse: probes 3 (same), 5 (worse), 4 (same), then done.
    const firstWorse = 5;
    let same = -1;
    let worse = 7;
    const probed: number[] = [];
    for (let next = nextProbe(same, worse); next !== null; next = nextProbe(same, worse)) {
      probed.push(next);
      if (next >= firstWorse) worse = next;
      else same = next;
    }
    expect(probed).toEqual([3, 5, 4]);
    expect(worse).toBe(firstWorse);
    expect(nextProbe(-1, 0)).toBeNull();
  });
});

describe('probeOutcome', () => {
  const verdict = (v: 'pass' | 'regressed' | 'improved' | 'inconclusive') => ({ verdict: v }) as Parameters<typeof probeOutcome>[0][number];
  it('is worse on any regression, unknown on any open verdict, else the same', () => {
    expect(probeOutcome([verdict('pass'), verdict('regressed'), verdict('inconclusive')])).toBe('worse');
    expect(probeOutcome([verdict('pass'), verdict('inconclusive')])).toBe('unknown');
    expect(probeOutcome([verdict('pass'), verdict('improved')])).toBe('same');
  });
});

/**
 * A repository of 5 commits of this project: c1 (good), c2, c3, c4 (the speedup scenario's
 * device-normalize does 300% more real work: its ratio falls to about a quarter, a step that
 * noise on a loaded 2-core machine cannot hide from 6 + 6 processes), c5 (bad). Bisect must name c4.
 */
describe('perf:bisect on a repository with a known slowdown', () => {
  const root = process.cwd();
  let repo: string;
  const commits: string[] = [];
  const git = async (...args: string[]) => (await run('git', args, { cwd: repo })).stdout.trim();

  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), 'gtp-bisect-repo-'));
    // The working tree's tracked files (what is being tested, committed or not), and its installed packages.
    const files = (await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 16 * 1024 * 1024 })).stdout
      .split('\0')
      .filter(Boolean);
    for (const f of files) await cp(join(root, f), join(repo, f), { recursive: true }).catch(() => undefined); // a tracked file deleted in the tree
    await symlink(resolve(root, 'node_modules'), join(repo, 'node_modules'), 'dir');
    await git('init', '-q', '-b', 'main');
    // .gitignore's `node_modules/` matches a folder, not the symlink to one.
    await writeFile(join(repo, '.git/info/exclude'), 'node_modules\n');
    await git('config', 'user.email', 'bisect@test');
    await git('config', 'user.name', 'bisect test');
    await git('config', 'commit.gpgsign', 'false');
    const speedup = join(repo, 'perf/06-speedup.perf.ts');
    const original = await readFile(speedup, 'utf8');
    expect(original).toContain('useConfig().extraWork ?? 0');
    for (let c = 1; c <= 5; c++) {
      if (c === 4) await writeFile(speedup, original.replace('useConfig().extraWork ?? 0', '3'));
      await writeFile(join(repo, 'bisect-step.txt'), `step ${c}\n`);
      await git('add', '-A');
      await git('commit', '-q', '-m', c === 4 ? 'c4: device-normalize does four times the work' : `c${c}`);
      commits.push(await git('rev-parse', 'HEAD'));
    }
  }, 120_000);
  afterAll(() => rm(repo, { recursive: true, force: true }));

  it('names the commit that slowed device-normalize, in about log2(N) + 1 probes', async () => {
    const out = join(repo, 'bisect.json');
    const env = { ...process.env, PERF_REQUIRE_BASELINE: '', PERF_REQUIRE_BACKEND: '' };
    // On a non-zero exit, fail with what the command printed, not only its command line.
    const { stdout } = await run(
      join(root, 'node_modules/.bin/tsx'),
      [
        'src/cli/main.ts',
        'bisect',
        '--good',
        commits[0]!,
        '--bad',
        commits[4]!,
        '--scenario',
        'speedup',
        '--metric',
        'mnist-transfer.speedup',
        // 6 a side, the fewest that decide at the first look: judged adjusted for the host-state
        // probe, an A/A probe (c3) passes there (at 8 a side before the probe; docs/baselines.md).
        '--processes',
        '6',
        '--json',
        out,
      ],
      { cwd: repo, env, maxBuffer: 16 * 1024 * 1024, timeout: 600_000 },
    ).catch((error: { code?: unknown; stdout?: string; stderr?: string }) => {
      throw new Error(`perf:bisect exited ${String(error.code)}:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    const result = JSON.parse(await readFile(out, 'utf8')) as BisectResult;
    expect(result.culprit?.commit, stdout).toBe(commits[3]);
    expect(stdout).toContain(`Culprit: ${commits[3]!.slice(0, 12)} c4: device-normalize does four times the work`);
    // 4 commits after the good end: the bad end, then c3 (same) and c4 (worse).
    expect(result.probes.map((p) => [p.commit, p.outcome])).toEqual([
      [commits[4], 'worse'],
      [commits[2], 'same'],
      [commits[3], 'worse'],
    ]);
  }, 900_000);
});
