import { describe, expect, it } from 'vitest';
import { makeImageDataset } from './dataset.js';
import { BatchLoader, streamBatchIndices, type Batch, type LoaderOptions } from './loader.js';
import { loadMnistPackage } from './mnist-package.js';

const MNIST_LIKE: LoaderOptions = { batchSize: 64, shuffle: true, seed: 1234, dropLast: false };
const IMAGE_BYTES = 28 * 28;

function allIndices(batches: Iterable<Batch>): number[] {
  return [...batches].flatMap((b) => Array.from(b.indices));
}

describe('BatchLoader on the mnist package (DataLoader(batch_size=64, shuffle=True))', () => {
  const ds = loadMnistPackage();
  const loader = new BatchLoader(ds, MNIST_LIKE);

  it('yields [64,28,28,1] batches of 50,176 bytes in their own ArrayBuffer', () => {
    const batches = [...loader.epoch(0)];
    expect(loader.batchesPerEpoch).toBe(157);
    expect(batches.length).toBe(157);
    for (const batch of batches.slice(0, -1)) {
      expect(batch.shape).toEqual([64, 28, 28, 1]);
      expect(batch.images.byteOffset).toBe(0);
      expect(batch.images.byteLength).toBe(50_176);
      expect(batch.images.buffer.byteLength).toBe(50_176);
      expect(batch.labels).toBeInstanceOf(Int32Array);
      expect(batch.labels.length).toBe(64);
      expect(batch.indices.length).toBe(64);
    }
    // 10,000 = 156*64 + 16: the last batch is short when dropLast is false.
    expect(batches.at(-1)!.shape).toEqual([16, 28, 28, 1]);
    expect(batches.at(-1)!.images.buffer.byteLength).toBe(16 * IMAGE_BYTES);
    // The buffers are views a later stage may reinterpret as Int32 words without copying.
    expect(new Int32Array(batches[0]!.images.buffer).length).toBe(50_176 / 4);
    const buffers = new Set(batches.map((b) => b.images.buffer));
    expect(buffers.size).toBe(batches.length);
  });

  it('visits every index exactly once per epoch', () => {
    const seen = allIndices(loader.epoch(3)).sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
  });

  it('is reproducible for a seed, differs between epochs and seeds', () => {
    const again = new BatchLoader(ds, MNIST_LIKE);
    expect(allIndices(again.epoch(1))).toEqual(allIndices(loader.epoch(1)));
    expect(allIndices(loader.epoch(1))).not.toEqual(allIndices(loader.epoch(2)));
    const otherSeed = new BatchLoader(ds, { ...MNIST_LIKE, seed: 1235 });
    expect(allIndices(otherSeed.epoch(1))).not.toEqual(allIndices(loader.epoch(1)));
    // Shuffled: the first batch is not simply the first 64 zeros.
    const first = loader.epoch(0).next().value as Batch;
    expect(new Set(first.labels).size).toBeGreaterThan(5);
  });

  it('copies image indices[k] and its label into slot k', () => {
    const batch = loader.epoch(5).next().value as Batch;
    batch.indices.forEach((index, k) => {
      expect(batch.images.subarray(k * IMAGE_BYTES, (k + 1) * IMAGE_BYTES)).toEqual(ds.images.subarray(index * IMAGE_BYTES, (index + 1) * IMAGE_BYTES));
      expect(batch.labels[k]).toBe(ds.labels[index]);
    });
  });

  it('keeps dataset order without shuffle', () => {
    const plain = new BatchLoader(ds, { ...MNIST_LIKE, shuffle: false });
    expect(allIndices(plain.epoch(7))).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
  });
});

describe('BatchLoader batch counts and validation', () => {
  const tiny = makeImageDataset({
    images: Uint8Array.from({ length: 10 * 2 * 2 * 3 }, (_, i) => i % 256),
    labels: Uint8Array.from({ length: 10 }, (_, i) => i),
    count: 10,
    height: 2,
    width: 2,
    channels: 3,
    source: 'tiny',
  });

  it('dropLast false keeps a short last batch, true drops it', () => {
    const keep = new BatchLoader(tiny, { batchSize: 4, shuffle: true, seed: 0, dropLast: false });
    expect(keep.batchesPerEpoch).toBe(3);
    expect([...keep.epoch(0)].map((b) => b.shape[0])).toEqual([4, 4, 2]);
    const drop = new BatchLoader(tiny, { batchSize: 4, shuffle: true, seed: 0, dropLast: true });
    expect(drop.batchesPerEpoch).toBe(2);
    const dropped = [...drop.epoch(0)];
    expect(dropped.map((b) => b.shape)).toEqual([
      [4, 2, 2, 3],
      [4, 2, 2, 3],
    ]);
    expect(dropped[0]!.images.byteLength).toBe(4 * 12);
    const exact = new BatchLoader(tiny, { batchSize: 5, shuffle: false, seed: 0, dropLast: true });
    expect([...exact.epoch(0)].map((b) => b.shape[0])).toEqual([5, 5]);
  });

  it('rejects bad options and epochs', () => {
    const ok: LoaderOptions = { batchSize: 4, shuffle: true, seed: 0, dropLast: false };
    expect(() => new BatchLoader(tiny, { ...ok, batchSize: 0 })).toThrow(/batchSize/);
    expect(() => new BatchLoader(tiny, { ...ok, batchSize: 2.5 })).toThrow(/batchSize/);
    expect(() => new BatchLoader(tiny, { ...ok, seed: Number.NaN })).toThrow(/seed/);
    const loader = new BatchLoader(tiny, ok);
    expect(() => loader.epoch(-1)).toThrow(/epoch/);
    expect(() => loader.epoch(0.5)).toThrow(/epoch/);
  });
});

describe('streamBatchIndices', () => {
  it('cuts consecutive seeded epochs into full batches, each epoch a permutation', () => {
    const stream = streamBatchIndices(12, 16, 5);
    const first = stream.next().value!;
    const second = stream.next().value!;
    expect(first).toHaveLength(16);
    const all = [...first, ...second, ...stream.next().value!].slice(0, 36); // 3 epochs of 12
    for (let e = 0; e < 3; e++) expect([...all.slice(12 * e, 12 * e + 12)].sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
    expect([...streamBatchIndices(12, 16, 5).next().value!]).toEqual([...first]); // seeded
  });
});
