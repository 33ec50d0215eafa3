import { describe, expect, it } from 'vitest';
import { seededRng } from '../base/random.js';
import { binomial, permutationPValue, shiftWithInterval, smallestDecidingGroupSize, smallestPermutationP } from './permutation.js';

const rng = () => seededRng(3);

describe('permutation test', () => {
  it('counts splits exactly: binomial(16, 8) = 12,870', () => {
    expect(binomial(16, 8)).toBe(12_870);
    expect(binomial(6, 3)).toBe(20);
  });

  it('gives the exact p-value of a complete separation: 2 / C(6,3) = 0.1', () => {
    // Only the observed split and its mirror are as extreme.
    expect(permutationPValue([1, 2, 3], [4, 5, 6], { rng: rng() })).toBeCloseTo(0.1, 12);
    expect(permutationPValue([1, 2, 3, 4, 5, 6, 7, 8], [11, 12, 13, 14, 15, 16, 17, 18], { rng: rng() })).toBeCloseTo(2 / 12_870, 12);
  });

  it('is 1 for identical groups and agrees with Monte Carlo sampling beyond the exact limit', () => {
    expect(permutationPValue([1, 2, 3], [1, 2, 3], { rng: rng() })).toBe(1);
    const a = [0.1, -0.3, 0.2, 0.05, -0.1, 0.0, 0.15, -0.2];
    const b = a.map((x) => x + 0.12);
    const exact = permutationPValue(a, b, { rng: rng() });
    const sampled = permutationPValue(a, b, { rng: rng(), exactLimit: 0, resamples: 40_000 });
    expect(Math.abs(sampled - exact)).toBeLessThan(0.01);
  });

  it('gives an unbounded interval when too few values could ever reject (2 + 2 at alpha 0.01)', () => {
    const s = shiftWithInterval([1, 2], [5, 6], 0.01, { rng: rng() });
    expect([s.lo, s.hi]).toEqual([-Infinity, Infinity]);
  });

  it('inverts into an interval that holds the true shift and excludes 0 when the test rejects', () => {
    const a = [0.02, -0.01, 0.03, 0.0, -0.02, 0.01, 0.015, -0.005];
    const b = a.map((x, i) => x + 0.2 + (i % 2 ? 0.01 : -0.01));
    const s = shiftWithInterval(a, b, 0.01, { rng: rng() });
    expect(s.estimate).toBeCloseTo(0.2, 10);
    expect(s.lo).toBeLessThan(0.2);
    expect(s.hi).toBeGreaterThan(0.2);
    expect(s.lo).toBeGreaterThan(0);
    expect(s.p).toBeLessThan(0.01);
  });
});

describe('what a permutation test of few values can reach', () => {
  it('the smallest p: 2 / C(2K, K) for equal groups, 1 / C(m + n, n) otherwise', () => {
    expect(smallestPermutationP(4, 4)).toBe(2 / 70);
    expect(smallestPermutationP(5, 5)).toBe(2 / 252);
    expect(smallestPermutationP(6, 6)).toBe(2 / 924);
    expect(smallestPermutationP(8, 4)).toBe(1 / 495);
    expect(smallestPermutationP(1, 1)).toBe(1);
    expect(() => smallestPermutationP(0, 3)).toThrow(RangeError);
  });

  it('is what permutationPValue returns for the most extreme split', () => {
    const rng = seededRng(1);
    expect(permutationPValue([1, 2, 3, 4], [11, 12, 13, 14], { rng })).toBe(smallestPermutationP(4, 4));
    expect(permutationPValue([1, 2, 3, 4, 5, 6, 7, 8], [11, 12, 13, 14], { rng })).toBe(smallestPermutationP(8, 4));
  });

  it('the fewest processes per arm that can reach alpha: 6 at 0.005, 5 at 0.01, 4 at 0.05', () => {
    expect(smallestDecidingGroupSize(0.005)).toBe(6);
    expect(smallestDecidingGroupSize(0.01)).toBe(5);
    expect(smallestDecidingGroupSize(0.05)).toBe(4);
    expect(() => smallestDecidingGroupSize(0)).toThrow(RangeError);
  });
});
