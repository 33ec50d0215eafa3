import { describe, expect, it } from 'vitest';
import { makeImageDataset } from '../data/dataset.js';
import { loadMnistPackage } from '../data/mnist-package.js';
import { sampleOf, stratifiedQuotas, stratifiedSplit, subsetOf } from './split.js';

const counts = (labels: Uint8Array) => Array.from({ length: 10 }, (_, d) => labels.filter((l) => l === d).length);

describe('stratifiedQuotas', () => {
  it('gives exact totals with the largest remainders rounded up', () => {
    // The mnist package's per-digit counts; 20% of each, 2,000 in all.
    const q = stratifiedQuotas([1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978], 2000);
    expect(q).toEqual([200, 225, 198, 206, 196, 173, 203, 214, 189, 196]);
    expect(q.reduce((a, b) => a + b, 0)).toBe(2000);
  });
  it('refuses more than there is', () => {
    expect(() => stratifiedQuotas([1, 2], 4)).toThrow(RangeError);
  });
});

describe('stratifiedSplit of the mnist package', () => {
  const data = loadMnistPackage();
  const split = stratifiedSplit(data, 2000, 7);

  it('splits 8,000 / 2,000 with the same class proportions', () => {
    expect(split.train.count).toBe(8000);
    expect(split.heldOut.count).toBe(2000);
    expect(counts(split.heldOut.labels)).toEqual([200, 225, 198, 206, 196, 173, 203, 214, 189, 196]);
    expect(split.description).toMatch(/8,000 train \/ 2,000 held out/);
  });

  it('is reproducible for a seed and different for another', () => {
    // Buffer.equals: vitest's deep equality on 1.5 MB arrays takes seconds.
    const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
    expect(same(stratifiedSplit(data, 2000, 7).heldOut.images, split.heldOut.images)).toBe(true);
    expect(same(stratifiedSplit(data, 2000, 8).heldOut.images, split.heldOut.images)).toBe(false);
  });

  it('never puts one image in both parts', () => {
    // Every image's bytes hashed; the package has a few duplicate digits, so compare multisets.
    const key = (d: typeof data, i: number) => Buffer.from(d.images.subarray(i * 784, (i + 1) * 784)).toString('base64');
    const all = new Map<string, number>();
    for (let i = 0; i < data.count; i++) all.set(key(data, i), (all.get(key(data, i)) ?? 0) + 1);
    for (const part of [split.train, split.heldOut]) {
      for (let i = 0; i < part.count; i++) {
        const k = key(part, i);
        expect(all.get(k)).toBeGreaterThan(0);
        all.set(k, all.get(k)! - 1);
      }
    }
    expect([...all.values()].every((n) => n === 0)).toBe(true);
  });
});

describe('subsetOf and sampleOf', () => {
  const tiny = makeImageDataset({
    images: Uint8Array.from([1, 2, 3, 4]),
    labels: Uint8Array.from([0, 1, 2, 3]),
    count: 4,
    height: 1,
    width: 1,
    channels: 1,
    source: 't',
  });
  it('copies the chosen images in order', () => {
    const s = subsetOf(tiny, [3, 1], 's');
    expect([...s.images]).toEqual([4, 2]);
    expect([...s.labels]).toEqual([3, 1]);
    expect(() => subsetOf(tiny, [4], 's')).toThrow(RangeError);
  });
  it('samples reproducibly, or returns everything', () => {
    expect(sampleOf(tiny, null, 1)).toBe(tiny);
    expect(sampleOf(tiny, 9, 1)).toBe(tiny);
    expect([...sampleOf(tiny, 2, 1).images]).toEqual([...sampleOf(tiny, 2, 1).images]);
    expect(sampleOf(tiny, 2, 1).count).toBe(2);
  });
});
