import { describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRng } from '../base/random.js';
import {
  betweenProcessSd,
  calibrationPathFor,
  type OneProcessOutcome,
  readCalibratedSpread,
  resampledDecision,
  resampleOneProcess,
  spreadOfPools,
  tally,
  wilson,
} from './calibration.js';

// Measured with the seeds below (2,000 runs each; docs/baselines.md quotes them).
const EIGHT_ALONE = 19; // 0.95% [0.61, 1.48]
const TWELVE_ALONE = 2; // 0.10%
const RUN_VS_ONE = 26; // 1.3%: K run processes against a one-process baseline, no calibration
/** % of ratios regressed: [8-process baseline, one process each with the calibration] for +20% work, /1.5, /2, /2.7. */
const POWER = [
  [0.2, 7.5],
  [12.1, 44.5],
  [86.6, 98.1],
  [100, 100],
];

/** Lognormal per-process speedups around `center`, sd `sd` in log space (measured: ~0.04). */
function pool(seed: number, center: number, sd = 0.04, n = 64): number[] {
  const rng = seededRng(seed);
  return Array.from({ length: n }, () => center * Math.exp(sd * Math.sqrt(-2 * Math.log(1 - rng.float())) * Math.cos(2 * Math.PI * rng.float())));
}
const plan = { perArm: 8, tolerance: 0.1, alpha: 0.005 };

describe('cross-process calibration (synthetic pools)', () => {
  it('Wilson interval: 0 of 30 still allows up to ~11%', () => {
    const [lo, hi] = wilson(0, 30);
    expect(lo).toBe(0);
    expect(hi).toBeCloseTo(0.1135, 3);
  });

  it('an A/A rarely regresses; a 25% slowdown is caught', () => {
    const rng = seededRng(5);
    const a = pool(1, 1.05);
    const aa = tally(Array.from({ length: 200 }, () => resampledDecision(a, pool(2, 1.05), plan, rng)));
    expect(aa.rates.regressed.rate).toBeLessThanOrEqual(0.01);
    const slow = tally(Array.from({ length: 200 }, () => resampledDecision(a, pool(3, 1.05 * 0.75), plan, rng)));
    expect(slow.rates.regressed.rate).toBeGreaterThanOrEqual(0.95);
    expect(slow.meanProcesses).toBeGreaterThanOrEqual(16);
  });

  it('measures the between-process spread on the log scale', () => {
    expect(betweenProcessSd(pool(4, 1, 0.05, 400))).toBeCloseTo(0.05, 2);
  });
});

describe('the one-process rule on the committed pools (baselines/webgpu-lavapipe-x64.calibration.json)', async () => {
  const { readFile } = await import('node:fs/promises');
  const pools = JSON.parse(await readFile('baselines/webgpu-lavapipe-x64.calibration.json', 'utf8')).pools as Record<string, number[]>;
  const [a, a2] = [pools.A!, pools["A'"]!];
  const unchanged = [...a, ...a2];
  // 22 gated ratios per run, as the committed baseline has; 10% tolerance; 2,000 resampled runs.
  const run = { metrics: 22, tolerance: 0.1, runs: 2000, divide: 1, baseProcesses: 8, headProcesses: 1, spread: null };
  const rate = (o: OneProcessOutcome) => o.runsWithAlarm / o.runs;

  it("reads the calibrated spread: pooled SD of the unchanged pools A and A', 118 degrees of freedom", async () => {
    const spread = await readCalibratedSpread('baselines/webgpu-lavapipe-x64.json', 'webgpu-lavapipe-x64');
    expect(spread).toMatchObject({ df: 118 });
    expect(spread!.sd).toBeCloseTo(0.0885, 4);
    expect(await readCalibratedSpread('baselines/webgpu-lavapipe-x64.json', 'no-such-profile')).toBeNull();
    expect(calibrationPathFor('some/dir/base.json', 'p')).toBe('some/dir/p.calibration.json');
  });

  it("reads the profile's own calibration first, else the legacy-named one for the machine its baseline records, not for another (issue 25 #6)", async () => {
    const own = await readCalibratedSpread('baselines/webgpu-lavapipe-x64.json', 'webgpu-lavapipe-amd-epyc-2c-x64');
    expect(own?.source).toMatch(/^baselines\/webgpu-lavapipe-amd-epyc-2c-x64\.calibration\.json /);
    // A folder with only the legacy-named files: the fallback.
    const dir = await mkdtemp(join(tmpdir(), 'gtp-legacy-calibration-'));
    try {
      for (const f of ['webgpu-lavapipe-x64.json', 'webgpu-lavapipe-x64.calibration.json']) await copyFile(join('baselines', f), join(dir, f));
      const legacy = await readCalibratedSpread(join(dir, 'webgpu-lavapipe-x64.json'), 'webgpu-lavapipe-x64');
      expect(legacy?.sd).toBeCloseTo(0.0885, 3);
      expect(await readCalibratedSpread(join(dir, 'webgpu-lavapipe-x64.json'), 'webgpu-lavapipe-amd-epyc-2c-x64')).toEqual(legacy);
      expect(await readCalibratedSpread(join(dir, 'webgpu-lavapipe-x64.json'), 'webgpu-lavapipe-amd-epyc-4c-x64')).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('A/A, all 22 ratios of a run together: at most 1% of runs fail, with the calibrated spread (as on this machine)', () => {
    const spread = spreadOfPools(pools, 'calibration')!;
    // Honest hold-out: the spread from A' judges draws from A.
    const holdout = spreadOfPools({ A: a2 }, "pool A'")!;
    const eightVsOne = resampleOneProcess(unchanged, unchanged, { ...run, spread }, seededRng(1));
    const oneVsOne = resampleOneProcess(a, a, { ...run, baseProcesses: 1, spread: holdout }, seededRng(2));
    const eightVsOneHoldout = resampleOneProcess(a, a, { ...run, spread: holdout }, seededRng(3));
    const runVsOne = resampleOneProcess(unchanged, unchanged, { ...run, baseProcesses: 1, headProcesses: 8, spread }, seededRng(1));
    expect([eightVsOne, oneVsOne, eightVsOneHoldout, runVsOne].map((o) => o.runsWithAlarm)).toEqual([0, 0, 0, 0]);
    expect(wilson(0, 2000)[1]).toBeLessThan(0.002);
  });

  it('A/A without a calibration file, K processes alone: 8 baseline processes 0.95%, 12 0.1%, 8 run processes against a one-process baseline 1.3% (the pools have two clusters)', () => {
    const eight = resampleOneProcess(unchanged, unchanged, run, seededRng(1));
    const twelve = resampleOneProcess(unchanged, unchanged, { ...run, baseProcesses: 12 }, seededRng(1));
    const runVsOne = resampleOneProcess(unchanged, unchanged, { ...run, baseProcesses: 1, headProcesses: 8 }, seededRng(1));
    expect([eight.runsWithAlarm, twelve.runsWithAlarm, runVsOne.runsWithAlarm]).toEqual([EIGHT_ALONE, TWELVE_ALONE, RUN_VS_ONE]);
    expect(rate(twelve)).toBeLessThanOrEqual(0.01);
  });

  it("power in a run of 22 ratios (per ratio): real +20% work rarely, a halved ratio mostly, the issue's -63% always", () => {
    const holdout = spreadOfPools({ A: a2 }, "pool A'")!;
    const power = (head: readonly number[], divide: number, baseProcesses: number) =>
      resampleOneProcess(a, head, { ...run, runs: 200, divide, baseProcesses, spread: holdout }, seededRng(4)).metricsRegressed / 4400;
    const figures = [
      [pools['+20%']!, 1],
      [a, 1.5],
      [a, 2],
      [a, 2.7],
    ].map(([head, divide]) =>
      [power(head as number[], divide as number, 8), power(head as number[], divide as number, 1)].map((x) => Math.round(1000 * x) / 10),
    );
    expect(figures).toEqual(POWER);
  });
});
