import { describe, expect, it } from 'vitest';
import { deriveSeed, seededRng, shuffledIndices } from './random.js';

function draws(seed: number, n: number, max: number): number[] {
  const rng = seededRng(seed);
  return Array.from({ length: n }, () => rng.int(max));
}

describe('seededRng', () => {
  it('gives the same sequence for the same seed', () => {
    expect(draws(42, 100, 1000)).toEqual(draws(42, 100, 1000));
    const a = seededRng(7);
    const b = seededRng(7);
    for (let i = 0; i < 100; i++) expect(a.float()).toBe(b.float());
  });

  it('gives different sequences for different (even adjacent) seeds', () => {
    const sequences = [0, 1, 2, -1, 2 ** 32, 2 ** 40].map((seed) => draws(seed, 20, 1_000_000).join(','));
    expect(new Set(sequences).size).toBe(sequences.length);
    // The first draw too: raw xoroshiro128+ would return ~seed first.
    const firsts = Array.from({ length: 100 }, (_, seed) => seededRng(seed).int(1_000_000));
    expect(new Set(firsts).size).toBeGreaterThan(95);
  });

  it('int() stays in range and is roughly uniform', () => {
    const rng = seededRng(123);
    const buckets = 10;
    const n = 100_000;
    const counts = new Array<number>(buckets).fill(0);
    let outOfRange = 0;
    for (let i = 0; i < n; i++) {
      const v = rng.int(buckets);
      if (Number.isInteger(v) && v >= 0 && v < buckets) counts[v]!++;
      else outOfRange++;
    }
    expect(outOfRange).toBe(0);
    // Chi-square with 9 degrees of freedom: 27.9 is the 0.1% critical value.
    const expected = n / buckets;
    const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(27.9);
  });

  it('float() is in [0, 1) with mean near 1/2', () => {
    const rng = seededRng(9);
    let sum = 0;
    let outOfRange = 0;
    for (let i = 0; i < 10_000; i++) {
      const v = rng.float();
      if (!(v >= 0 && v < 1)) outOfRange++;
      sum += v;
    }
    expect(outOfRange).toBe(0);
    expect(Math.abs(sum / 10_000 - 0.5)).toBeLessThan(0.02);
  });

  it('rejects bad arguments', () => {
    expect(() => seededRng(1.5)).toThrow(RangeError);
    expect(() => seededRng(1).int(0)).toThrow(RangeError);
    expect(() => seededRng(1).int(2.5)).toThrow(RangeError);
  });
});

describe('shuffledIndices', () => {
  it('is a permutation of 0..n-1', () => {
    const p = shuffledIndices(10_000, 5);
    expect(p.length).toBe(10_000);
    const sorted = Array.from(p).sort((a, b) => a - b);
    expect(sorted).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
  });

  it('is reproducible for a seed and differs between seeds', () => {
    expect(shuffledIndices(1000, 3)).toEqual(shuffledIndices(1000, 3));
    expect(shuffledIndices(1000, 3)).not.toEqual(shuffledIndices(1000, 4));
    // Actually shuffled, not the identity.
    const p = shuffledIndices(1000, 3);
    expect(p.filter((v, i) => v === i).length).toBeLessThan(20);
  });

  it('handles n = 0 and 1', () => {
    expect(shuffledIndices(0, 1)).toEqual(new Uint32Array(0));
    expect(shuffledIndices(1, 1)).toEqual(Uint32Array.of(0));
  });
});

describe('deriveSeed', () => {
  it('is deterministic and separates streams and seeds', () => {
    expect(deriveSeed(1, 2)).toBe(deriveSeed(1, 2));
    const seeds = new Set<number>();
    for (let seed = 0; seed < 10; seed++) for (let stream = 0; stream < 10; stream++) seeds.add(deriveSeed(seed, stream));
    expect(seeds.size).toBe(100);
    expect(deriveSeed(1, 2)).not.toBe(deriveSeed(2, 1));
  });
});
