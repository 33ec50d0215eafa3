import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadMnistPackage } from './mnist-package.js';

const DIGIT_COUNTS = [1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978];

describe('loadMnistPackage', () => {
  const ds = loadMnistPackage();

  it('holds 10,000 images of 28x28x1 bytes', () => {
    expect(ds.count).toBe(10_000);
    expect([ds.height, ds.width, ds.channels]).toEqual([28, 28, 1]);
    expect(ds.images.length).toBe(10_000 * 784);
    expect(ds.source).toMatch(/mnist/);
  });

  it('is ordered by digit with the known per-digit counts', () => {
    const counts = new Array<number>(10).fill(0);
    for (const label of ds.labels) counts[label]!++;
    expect(counts).toEqual(DIGIT_COUNTS);
    let start = 0;
    DIGIT_COUNTS.forEach((n, digit) => {
      expect(ds.labels.subarray(start, start + n).every((l) => l === digit)).toBe(true);
      start += n;
    });
  });

  it('recovers every byte exactly from the package floats', () => {
    const mnist = createRequire(import.meta.url)('mnist') as Array<{ length: number; get(i: number): number[] }>;
    let image = 0;
    let offGrid = 0;
    let mismatched = 0;
    for (let digit = 0; digit < 10; digit++) {
      for (let i = 0; i < mnist[digit]!.length; i++, image++) {
        const floats = mnist[digit]!.get(i);
        for (let p = 0; p < 784; p++) {
          const scaled = floats[p]! * 255;
          if (Math.abs(scaled - Math.round(scaled)) >= 0.2) offGrid++;
          if (ds.images[image * 784 + p] !== Math.round(scaled)) mismatched++;
        }
      }
    }
    expect(image).toBe(10_000);
    expect(offGrid).toBe(0);
    expect(mismatched).toBe(0);
  });

  it('uses the full byte range and looks like digits (mostly black)', () => {
    let max = 0;
    let zeros = 0;
    for (const b of ds.images) {
      if (b > max) max = b;
      if (b === 0) zeros++;
    }
    expect(max).toBe(255);
    // MNIST is about 81% zero pixels.
    expect(zeros / ds.images.length).toBeGreaterThan(0.75);
  });

  it('is memoized', () => {
    expect(loadMnistPackage()).toBe(ds);
  });
});
