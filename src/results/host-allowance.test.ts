import { describe, expect, it } from 'vitest';
import { lavapipeProfile, testRatio, testRunRecord } from '../../test/support/run-record.js';
import { makeBaseline } from './baseline.js';
import { compareWithBaseline, EXIT } from './compare.js';
import { allowanceOfSessions, judgingContext, readHostAllowance } from './host-allowance.js';
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
    expect(a?.allowance).toBeCloseTo(0.1, 12);
    expect(a?.source).toMatch(/3 unchanged calibration pools \(6 processes\) of 2 sessions of this device \(one, two\)/);
    // One pool measures no shift.
    expect(allowanceOfSessions([{ path: 'one', pools: { A: [1, 2], '+10%': [1, 2] } }])).toBeNull();
  });

  it("is 8.1% for this repository's CI device: the pools of 2026-12-03 and 2026-12-04, one CPU kind", async () => {
    const a = await readHostAllowance('baselines', XEON_ID);
    // Geometric means of the unchanged speedup: 0.7928 / 0.7929 (12-03, 60 + 60) and 0.7421 / 0.7334 (12-04, 32 + 32).
    expect(a?.allowance).toBeCloseTo(0.7929 / 0.7334 - 1, 3);
    expect(a?.source).toContain('webgpu-lavapipe-amd-epyc-2c-x64.calibration.json, baselines/webgpu-lavapipe-x64.calibration.json');
    // Needed only across hosts: the baseline's own profile gets the spread alone.
    expect(await judgingContext({ profile: epyc }, `baselines/${EPYC_ID}.json`, EPYC_ID)).not.toHaveProperty('hostAllowance');
    expect((await judgingContext({ profile: xeon }, `baselines/${EPYC_ID}.json`, EPYC_ID)).hostAllowance?.allowance).toBeCloseTo(0.081, 3);
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

  it('refuses (exit 3) when nothing measured an allowance, and another device as before', () => {
    const none = compareWithBaseline(run([bytes(50_176)]), base, { allowProfileMismatch: false, gateTiming: false, hostAllowance: null });
    expect(none.exitCode).toBe(EXIT.noBaseline);
    expect(none.refused).toMatch(
      /and this run is webgpu-lavapipe-intel-xeon-platinum-2c-x64: the same device on another CPU, and no calibration of that device .* measures how far its ratios move between hosts/,
    );
    // --allow-profile-mismatch still compares it, as any other profile.
    expect(compareWithBaseline(run([bytes(50_176)]), base, { allowProfileMismatch: true, gateTiming: false, hostAllowance: null }).notes[0]).toMatch(
      /^profile mismatch allowed/,
    );
    const fourCores = testRunRecord([bytes(50_176)], { profile: lavapipeProfile({ model: 'AMD EPYC', cores: 4 }, 'webgpu-lavapipe-amd-epyc-4c-x64') });
    expect(compareWithBaseline(fourCores, base, { allowProfileMismatch: false, gateTiming: false, hostAllowance }).refused).toMatch(
      /pass --allow-profile-mismatch/,
    );
  });
});
