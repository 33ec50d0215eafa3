import { describe, expect, it } from 'vitest';
import { seededRng } from '../base/random.js';
import { betweenProcessSd, resampledDecision, tally, wilson } from './calibration.js';

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
