import { describe, expect, it } from 'vitest';
import { seededRng } from '../base/random.js';
import { calibrateCondition, conditionsFrom, DEFAULT_PLAN, readPools, syntheticSeries, type Condition } from './calibration.js';
import { DEFAULT_EDIVISIVE } from './edivisive.js';

const POOLS = 'baselines/webgpu-lavapipe-x64.calibration.json';

describe('change-point calibration on the committed pools', () => {
  it('draws a series from the pools with the step at an index in range', () => {
    const condition: Condition = { name: 'two values', before: [1], after: [2], divide: 4, step: true };
    for (let seed = 0; seed < 20; seed++) {
      const s = syntheticSeries(condition, { length: 12, edge: 3 }, seededRng(seed));
      expect(s.splitAt).toBeGreaterThanOrEqual(3);
      expect(s.splitAt).toBeLessThanOrEqual(9);
      expect(s.values).toEqual([...Array(s.splitAt).fill(1), ...Array(12 - s.splitAt).fill(0.5)]);
    }
  });

  it('reads the pools perf:calibrate wrote and builds the flat, injected and real conditions', async () => {
    const conditions = conditionsFrom(await readPools(POOLS));
    expect(conditions.map((c) => [c.name.split(':')[0], c.step])).toEqual([
      ['flat', false],
      ['injected 10% step', true],
      ['injected 20% step', true],
      ['flat, two pools', false],
      ['real +10% work', true],
      ['real +20% work', true],
    ]);
    expect(() => conditionsFrom({ B: [1, 2] })).toThrow(/no 'A' condition/);
  });

  it('on 100 series each (test-time report): at most 5% of flat series with a detection, at least 30% of 20% steps found at their index', async () => {
    const [flat, , step20] = conditionsFrom(await readPools(POOLS));
    const plan = { ...DEFAULT_PLAN, series: 100 };
    const none = calibrateCondition(flat!, DEFAULT_EDIVISIVE, plan, 0);
    const found = calibrateCondition(step20!, DEFAULT_EDIVISIVE, plan, 2);
    console.log(
      `[history calibration, 100 series of 30] flat: ${none.anyDetection.k}/100 with a detection; injected 20% step: ${found.recall!.k}/100 found within +-1`,
    );
    expect(none.anyDetection.rate).toBeLessThanOrEqual(0.05);
    expect(found.recall!.rate).toBeGreaterThanOrEqual(0.3);
    // Seeded: the same plan gives the same figures.
    expect(calibrateCondition(flat!, DEFAULT_EDIVISIVE, plan, 0)).toEqual(none);
  });
});
