import { describe, expect, it } from 'vitest';
import { seededRng } from '../data/random.js';
import { crossRunFalseAlarms, ratioMetric, simulateCondition, toleranceWithoutFalseAlarms } from './calibration.js';

/** Lognormal timings around `ms` with sd 0.1 in log space, like a synced timer's noise. */
function pool(rng: ReturnType<typeof seededRng>, msA: number, msB: number, n = 400) {
  const ln = () => Math.sqrt(-2 * Math.log(1 - rng.float())) * Math.cos(2 * Math.PI * rng.float()) * 0.1;
  return { a: Array.from({ length: n }, () => msA * Math.exp(ln())), b: Array.from({ length: n }, () => msB * Math.exp(ln())) };
}

describe('simulateCondition (synthetic pools)', () => {
  const plan = { pairs: 30, tolerance: 0.1, trials: 200, resamples: 500 };

  it('rarely raises a false alarm when nothing changed (A/A)', () => {
    const rng = seededRng(11);
    const same = pool(rng, 1, 1);
    const outcome = simulateCondition(same, same, plan, rng);
    expect(outcome.regressed).toBeLessThanOrEqual(0.02);
  });

  it('detects a 30% slowdown of B nearly always', () => {
    const rng = seededRng(12);
    const outcome = simulateCondition(pool(rng, 1, 0.6), pool(rng, 1, 0.78), plan, rng);
    expect(outcome.regressed).toBeGreaterThanOrEqual(0.95);
    expect(outcome.medianRelativeCIWidth).toBeGreaterThan(0);
  });
});

describe('crossRunFalseAlarms', () => {
  it('counts every ordered pair of runs and flags runs whose CI misses the band', () => {
    const rng = seededRng(3);
    const run = (center: number) => {
      const p = pool(rng, center, 1, 200);
      return ratioMetric(p, rng, 500);
    };
    const steady = crossRunFalseAlarms([run(1.5), run(1.5), run(1.5), run(1.5)], 0.1);
    expect(steady.comparisons).toBe(12);
    expect(steady.regressed).toBe(0);
    // One run from a process that came up 40% slower: the others regress against it.
    const drifting = crossRunFalseAlarms([run(1.5), run(1.5), run(1.5), run(2.1)], 0.1);
    expect(drifting.flaggedFirst).toBeGreaterThan(0);
    expect(drifting.range[1] / drifting.range[0]).toBeGreaterThan(1.3);
    const runs = [run(1.5), run(1.5), run(1.5), run(2.1)];
    const safe = toleranceWithoutFalseAlarms(runs);
    expect(crossRunFalseAlarms(runs, safe).regressed).toBe(0);
    expect(crossRunFalseAlarms(runs, safe - 0.01).regressed).toBeGreaterThan(0);
  });
});
