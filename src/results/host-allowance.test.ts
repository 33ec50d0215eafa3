import { describe, expect, it } from 'vitest';
import { lavapipeProfile, testRatio, testRunRecord } from '../../test/support/run-record.js';
import { makeBaseline } from './baseline.js';
import { compareWithBaseline, EXIT } from './compare.js';
import { allowanceOfHosts, allowanceOfSessions, judgingContext, readHostAllowance } from './host-allowance.js';
import type { Metric } from './schema.js';

const EPYC_ID = 'webgpu-lavapipe-amd-epyc-2c-x64';
const XEON_ID = 'webgpu-lavapipe-intel-xeon-platinum-2c-x64';
const epyc = lavapipeProfile({ model: 'AMD EPYC', cores: 2 }, EPYC_ID);
const xeon = lavapipeProfile({ model: 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz', cores: 2 }, XEON_ID);
const bytes = (value: number): Metric => ({ id: 'x.up', scenario: 'device-normalize', kind: 'exact', value, unit: 'B' });
const ms = (value: number): Metric => ({ id: 'x.time', scenario: 'speedup', kind: 'time', value, unit: 'ms' });
const eight = (x: number) => [1, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 1].map((v) => v * x);
const speedup = (values: number[]) => testRatio('mnist-transfer.speedup', values[0]!, [values[0]! * 0.98, values[0]! * 1.02], values);

describe('host allowance: measured from the committed calibration pools', () => {
  it('is the largest shift between unchanged pools of the sessions; the +10%/+20% pools do not count', () => {
    const a = allowanceOfSessions([
      { path: 'one', pools: { A: [1, 1], "A'": [1.02, 1.02], '+20%': [0.5, 0.5] } },
      { path: 'two', pools: { A: [1.1, 1.1] } },
    ]);
    expect(a?.allowance).toBeCloseTo(1 - 1 / 1.1, 12);
    expect(a?.source).toMatch(/3 unchanged calibration pools \(6 processes\) of 2 sessions of this device \(one, two\)/);
    // One pool measures no shift.
    expect(allowanceOfSessions([{ path: 'one', pools: { A: [1, 2], '+10%': [1, 2] } }])).toBeNull();
  });

  it("is 7.5% from this repository's pools of 2026-12-03 and 2026-12-04 (one CPU kind), a floor under each ratio's own shift between the committed AMD and Intel baselines", async () => {
    const a = await readHostAllowance('baselines', XEON_ID);
    // Geometric means of the unchanged speedup: 0.7928 / 0.7929 (12-03, 60 + 60) and 0.7421 / 0.7334 (12-04, 32 + 32).
    expect(a?.source).toMatch(/at least ±7\.5%, from the largest shift between 4 unchanged calibration pools/);
    expect(a?.source).toContain('webgpu-lavapipe-amd-epyc-2c-x64.calibration.json, baselines/webgpu-lavapipe-x64.calibration.json');
    // The baselines of commit 8c2043a on AMD EPYC and Intel Xeon: each ratio its own shift, never under the pools'.
    expect(a?.source).toMatch(/^baselines of one commit on two CPUs \(commit 8c2043a6a1dd on AMD EPYC .* and Intel\(R\) Xeon\(R\) Processor/);
    const own = a?.byMetric ?? {};
    expect(Object.keys(own).length).toBeGreaterThanOrEqual(20);
    expect(Math.min(...Object.values(own))).toBeCloseTo(1 - 0.7334 / 0.7929, 3);
    // Kinetics' transfer speedup falls by 47% between the two CPUs (5.56x on the EPYC, 2.95x on the Xeon): lavapipe is the CPU.
    expect(own['kinetics.speedup.transfer']).toBeGreaterThan(0.4);
    expect(a?.allowance).toBe(Math.max(...Object.values(own)));
    // Needed only across hosts: the baseline's own profile gets the spread alone.
    const baseline = { profile: epyc, scale: 'quick' as const, metrics: [] };
    expect(await judgingContext({ profile: epyc, scale: 'quick' }, `baselines/${EPYC_ID}.json`, baseline)).not.toHaveProperty('hostAllowance');
    expect((await judgingContext({ profile: xeon, scale: 'quick' }, `baselines/${EPYC_ID}.json`, baseline)).hostAllowance?.byMetric).toEqual(own);
  });
});

describe('host allowance: measured from baselines of one commit on two CPUs', () => {
  const host = (cpu: string, commit: string | null, metrics: Metric[], dirty: boolean | null = false) => ({ path: `${cpu}.json`, cpu, commit, dirty, metrics });
  const probe: Metric = { ...speedup(eight(3)), id: 'mnist-transfer.speedup.host-probe', labels: { role: 'covariate' } };

  it("is the largest shift of a ratio's geometric mean between them, naming the commit, the CPUs and the ratio", () => {
    const a = allowanceOfHosts([
      host('AMD EPYC', 'c0ffee', [speedup(eight(1.5)), { ...speedup(eight(2)), id: 'coco.speedup' }, bytes(1)]),
      host('Intel Xeon', 'c0ffee', [speedup(eight(1.2)), { ...speedup(eight(2.1)), id: 'coco.speedup' }, bytes(1)]),
    ]);
    expect(a?.byMetric).toEqual({ 'mnist-transfer.speedup': expect.closeTo(1 - 1.2 / 1.5, 12), 'coco.speedup': expect.closeTo(1 - 2 / 2.1, 12) });
    expect(a?.allowance).toBeCloseTo(0.2, 12);
    expect(a?.source).toBe(
      'baselines of one commit on two CPUs (commit c0ffee on AMD EPYC (AMD EPYC.json) and Intel Xeon (Intel Xeon.json)): each of 2 ratio(s) its own shift, from 4.8% to 20.0% (mnist-transfer.speedup)',
    );
  });

  it('pairs only one clean commit on two CPU models, ratios of several processes on each side, and never the host-state probe', () => {
    // A tree with changes beside the commit is not that commit's code; nor is one whose state is unknown.
    for (const dirty of [true, null])
      expect(allowanceOfHosts([host('AMD EPYC', 'a', [speedup(eight(1.5))]), host('Intel Xeon', 'a', [speedup(eight(1))], dirty)])).toBeNull();
    // One process's value carries that process's own spread.
    const one = { ...speedup([1]), processes: [1] };
    expect(allowanceOfHosts([host('AMD EPYC', 'a', [speedup(eight(1.5))]), host('Intel Xeon', 'a', [one])])).toBeNull();
    expect(allowanceOfHosts([host('AMD EPYC', 'a', [speedup(eight(1.5))]), host('Intel Xeon', 'b', [speedup(eight(1))])])).toBeNull();
    expect(allowanceOfHosts([host('AMD EPYC', 'a', [speedup(eight(1.5))]), host('AMD EPYC', 'a', [speedup(eight(1))])])).toBeNull();
    expect(allowanceOfHosts([host('AMD EPYC', null, [speedup(eight(1.5))]), host('Intel Xeon', null, [speedup(eight(1))])])).toBeNull();
    const probes = allowanceOfHosts([
      host('AMD EPYC', 'a', [speedup(eight(1.5)), probe]),
      host('Intel Xeon', 'a', [speedup(eight(1.5)), { ...probe, value: 9, processes: eight(9) }]),
    ]);
    expect(probes?.allowance).toBeCloseTo(0, 12);
  });
});

describe('compareWithBaseline across hosts of one device', () => {
  const base = makeBaseline(testRunRecord([bytes(50_176), speedup(eight(1.5)), ms(0.5)], { profile: epyc }), 'run.json', {});
  const hostAllowance = { allowance: 0.081, source: 'pools' };
  const run = (metrics: Metric[]) => testRunRecord(metrics, { profile: xeon });

  it('judges ratios with the allowance and exact metrics as they are, never times, and every verdict and a note say so', () => {
    // 1.5 -> 1.2 is -20%: beyond the 10% tolerance + 8.1% allowance, and far beyond what 8 processes move.
    const slower = compareWithBaseline(run([bytes(50_176), speedup(eight(1.2)), ms(5)]), base, {
      allowProfileMismatch: false,
      gateTiming: true,
      hostAllowance,
    });
    expect(slower.exitCode).toBe(EXIT.regression);
    expect(slower.otherHost).toMatchObject({ baselineProfile: EPYC_ID, allowance: 0.081, baselineCpu: 'AMD EPYC' });
    expect(slower.notes[0]).toMatch(
      /^judged against webgpu-lavapipe-amd-epyc-2c-x64, recorded on another CPU \(AMD EPYC; this run Intel.*\): allowance ±8\.1%/,
    );
    expect(slower.verdicts.map((v) => v.id).sort()).toEqual(['mnist-transfer.speedup', 'x.up']);
    const ratio = slower.verdicts.find((v) => v.id === 'mnist-transfer.speedup')!;
    expect(ratio).toMatchObject({ verdict: 'regressed', tolerance: 0.1 + 0.081 });
    expect(ratio.reason).toMatch(/judged against webgpu-lavapipe-amd-epyc-2c-x64, recorded on another CPU: allowance ±8\.1%/);
    expect(slower.verdicts.find((v) => v.id === 'x.up')!.reason).toMatch(/recorded on another CPU: exact, no allowance$/);
    // -15%: beyond the tolerance alone, within tolerance + allowance: passes on another host.
    const within = compareWithBaseline(run([bytes(50_176), speedup(eight(1.5 * 0.85))]), base, {
      allowProfileMismatch: false,
      gateTiming: false,
      hostAllowance,
    });
    expect(within.verdicts.find((v) => v.id === 'mnist-transfer.speedup')!.verdict).toBe('pass');
    expect(within.exitCode).toBe(EXIT.pass);
    // An exact metric changed is a regression on any host.
    expect(
      compareWithBaseline(run([bytes(200_704), speedup(eight(1.5))]), base, { allowProfileMismatch: false, gateTiming: false, hostAllowance }).exitCode,
    ).toBe(EXIT.regression);
  });

  it('judges exact metrics only when nothing measured an allowance: a ratio 20% down is shown, not gated; another device is refused as before', () => {
    const none = compareWithBaseline(run([bytes(50_176), speedup(eight(1.2))]), base, { allowProfileMismatch: false, gateTiming: false, hostAllowance: null });
    // A baseline of this device satisfies PERF_REQUIRE_BASELINE: not refused, exit 0 on the exact metric.
    expect(none).toMatchObject({ refused: null, exitCode: EXIT.pass, otherHost: { allowance: null, source: null } });
    expect(none.notes[0]).toMatch(/recorded on another CPU \(AMD EPYC; this run Intel.*\): exact metrics only; ratios shown, not gated/);
    const ratio = none.verdicts.find((v) => v.id === 'mnist-transfer.speedup')!;
    expect(ratio).toMatchObject({ gates: false, tolerance: 0.1 });
    expect(ratio.process).toBeUndefined();
    expect(ratio.reason).toMatch(/not gated, no allowance between CPUs measured for this device$/);
    // No note asks for a multi-process baseline: the baseline has 8 processes; the CPU is why.
    expect(none.notes.join('\n')).not.toMatch(/cannot gate: the baseline holds one process/);
    // An exact metric changed still fails.
    expect(
      compareWithBaseline(run([bytes(200_704), speedup(eight(1.5))]), base, { allowProfileMismatch: false, gateTiming: false, hostAllowance: null }).exitCode,
    ).toBe(EXIT.regression);
    // --allow-profile-mismatch changes nothing for the same device: its ratios would otherwise gate with no allowance at all.
    const asked = compareWithBaseline(run([bytes(50_176), speedup(eight(1.2))]), base, { allowProfileMismatch: true, gateTiming: false, hostAllowance: null });
    expect(asked).toMatchObject({ exitCode: EXIT.pass, otherHost: { allowance: null } });
    // Ratios alone cannot be judged across CPUs without an allowance: nothing to judge, exit 3, saying why.
    const ratioBase = makeBaseline(testRunRecord([speedup(eight(1.5))], { profile: epyc }), 'run.json', {});
    const ratiosOnly = compareWithBaseline(run([speedup(eight(0.3))]), ratioBase, { allowProfileMismatch: false, gateTiming: false, hostAllowance: null });
    expect(ratiosOnly.exitCode).toBe(EXIT.noBaseline);
    expect(ratiosOnly.refused).toMatch(/nothing to judge: .*ratios do not gate across CPUs without a measured allowance/);
    const fourCores = testRunRecord([bytes(50_176)], { profile: lavapipeProfile({ model: 'AMD EPYC', cores: 4 }, 'webgpu-lavapipe-amd-epyc-4c-x64') });
    expect(compareWithBaseline(fourCores, base, { allowProfileMismatch: false, gateTiming: false, hostAllowance }).refused).toMatch(
      /pass --allow-profile-mismatch/,
    );
  });
});
