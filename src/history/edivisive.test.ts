import { describe, expect, it } from 'vitest';
import { seededRng } from '../base/random.js';
import { bestSplit, checkParams, DEFAULT_EDIVISIVE, eDivisive, permutationP, qhatValues, segmentsOf } from './edivisive.js';

/** Q-hat of X = z[0, tau) and Y = z[tau, kappa) straight from Matteson & James's eq. 3 and 5, by brute force. */
function qhatByDefinition(z: readonly number[], tau: number, kappa: number, alpha: number): number {
  const x = z.slice(0, tau);
  const y = z.slice(tau, kappa);
  const d = (a: number, b: number) => Math.abs(a - b) ** alpha;
  let between = 0;
  for (const a of x) for (const b of y) between += d(a, b);
  let wx = 0;
  for (let i = 0; i < x.length; i++) for (let j = i + 1; j < x.length; j++) wx += d(x[i]!, x[j]!);
  let wy = 0;
  for (let i = 0; i < y.length; i++) for (let j = i + 1; j < y.length; j++) wy += d(y[i]!, y[j]!);
  const m = x.length;
  const k = y.length;
  const e = (2 / (m * k)) * between - wx / ((m * (m - 1)) / 2) - wy / ((k * (k - 1)) / 2);
  return ((m * k) / (m + k)) * e;
}

/** n values of N(mean, sd) by Box-Muller from a seeded stream. */
function normal(n: number, mean: number, sd: number, seed: number): number[] {
  const rng = seededRng(seed);
  return Array.from({ length: n }, () => mean + sd * Math.sqrt(-2 * Math.log(1 - rng.float())) * Math.cos(2 * Math.PI * rng.float()));
}

describe('E-Divisive means', () => {
  it('computes Q-hat as Matteson & James define it, the largest over kappa, for alpha 1 and 0.5', () => {
    const z = normal(13, 0, 1, 1);
    for (const alpha of [1, 0.5]) {
      for (const minSegment of [2, 3]) {
        const q = qhatValues(z, alpha, minSegment);
        for (let tau = minSegment; tau <= 13 - minSegment; tau++) {
          const kappas = Array.from({ length: 13 - tau - minSegment + 1 }, (_, i) => tau + minSegment + i);
          expect(q[tau]).toBeCloseTo(Math.max(...kappas.map((kappa) => qhatByDefinition(z, tau, kappa, alpha))), 10);
        }
        expect(q[minSegment - 1]).toBe(Number.NEGATIVE_INFINITY);
        expect(q[14 - minSegment]).toBe(Number.NEGATIVE_INFINITY);
      }
    }
  });

  it('has no split in a segment shorter than twice the minimum', () => {
    expect(bestSplit([1, 2, 3, 4, 5, 6, 7], 1, 4)).toBeNull();
    expect(bestSplit([1, 1, 1, 1, 9, 9, 9, 9], 1, 4)).toEqual({ index: 4, qhat: expect.any(Number) });
  });

  it('finds a step at its index with p below the level, and the same again for the same seed', () => {
    const z = [...normal(12, 0, 0.05, 2), ...normal(12, 0.2, 0.05, 30)];
    const found = eDivisive(z, DEFAULT_EDIVISIVE, seededRng(7));
    expect(found.map((c) => c.index)).toEqual([12]);
    expect(found[0]!.p).toBeLessThanOrEqual(DEFAULT_EDIVISIVE.significance);
    expect(found[0]!.p).toBeCloseTo(1 / (DEFAULT_EDIVISIVE.permutations + 1), 10);
    expect(eDivisive(z, DEFAULT_EDIVISIVE, seededRng(7))).toEqual(found);
  });

  it('finds two steps', () => {
    const z = [...normal(10, 0, 0.05, 4), ...normal(10, 0.3, 0.05, 5), ...normal(10, 0, 0.05, 6)];
    expect(
      eDivisive(z, DEFAULT_EDIVISIVE, seededRng(8))
        .map((c) => c.index)
        .sort((a, b) => a - b),
    ).toEqual([10, 20]);
  });

  it('finds nothing in a constant series or in noise', () => {
    expect(eDivisive(Array(20).fill(0.5), DEFAULT_EDIVISIVE, seededRng(9))).toEqual([]);
    expect(eDivisive(normal(30, 0, 0.1, 10), DEFAULT_EDIVISIVE, seededRng(11))).toEqual([]);
  });

  it('gives p 1 when every permutation is as extreme (a constant series)', () => {
    expect(permutationP(Array(10).fill(1), [], 0, { ...DEFAULT_EDIVISIVE, significance: 0.99 }, seededRng(1))).toBe(1);
  });

  it('cuts a series into segments and refuses parameters out of range', () => {
    expect(segmentsOf(10, [7, 3])).toEqual([
      [0, 3],
      [3, 7],
      [7, 10],
    ]);
    expect(() => checkParams({ ...DEFAULT_EDIVISIVE, alpha: 2 })).toThrow(/alpha/);
    expect(() => checkParams({ ...DEFAULT_EDIVISIVE, minSegment: 1 })).toThrow(/minSegment/);
    expect(() => eDivisive([1, Number.NaN], DEFAULT_EDIVISIVE, seededRng(1))).toThrow(/finite/);
  });
});
