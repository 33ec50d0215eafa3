import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRunRecord } from './run-record.js';
import type { Metric, RunRecord } from '../../src/results/schema.js';

/** A new temp folder for one test file. */
export const tempDir = (name: string) => mkdtemp(join(tmpdir(), `gtp-${name}-`));

/** A real git repository in `dir` with `n` empty commits on one branch; their hashes, oldest first. */
export function gitRepoWithCommits(dir: string, n: number): string[] {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=history test', '-c', 'user.email=history@test', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  git('init', '-q', '-b', 'main');
  return Array.from({ length: n }, (_, i) => {
    git('commit', '-q', '--allow-empty', '-m', `commit ${i + 1}`);
    return git('rev-parse', 'HEAD');
  });
}

/** A ratio metric (a speedup) with a CI of +-2%. */
export const ratioMetric = (id: string, value: number): Metric => ({
  id,
  scenario: 'test',
  kind: 'ratio',
  value,
  unit: 'x',
  ci: [value * 0.98, value * 1.02],
  n: 50,
});

/** An exact metric (a byte count). */
export const exactMetric = (id: string, value: number): Metric => ({ id, scenario: 'test', kind: 'exact', value, unit: 'B' });

/** A run record of the test profile made at `commit`, `minutes` after a fixed start. */
export const recordAt = (commit: string | null, minutes: number, metrics: Metric[]): RunRecord =>
  testRunRecord(metrics, { git: { commit, dirty: false }, createdAt: new Date(Date.UTC(2026, 11, 1) + minutes * 60_000).toISOString() });
