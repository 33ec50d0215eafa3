// Article section 1: MNIST + DataLoader(batch_size=64, shuffle=True), as raw uint8 batches.
import { beforeAll, describe, expect, it } from 'vitest';
import { BatchLoader, exactMetric, recordMetrics, useMnist, ARTICLE_BATCH, type ImageDataset } from 'gpu-transfer-perf';

let mnist: ImageDataset;

beforeAll(async () => {
  mnist = await useMnist();
});

describe('MNIST loader (section 1)', () => {
  it('yields [64,28,28,1] uint8 batches of 50,176 bytes in one contiguous buffer', async ({ task }) => {
    const loader = new BatchLoader(mnist, ARTICLE_BATCH);
    const first = loader.epoch(0).next().value!;
    expect(first.shape).toEqual([64, 28, 28, 1]);
    expect(first.images).toBeInstanceOf(Uint8Array);
    expect(first.images.byteLength).toBe(50_176);
    expect(first.images.buffer.byteLength).toBe(50_176);
    expect(first.labels).toHaveLength(64);
    await recordMetrics(
      task,
      exactMetric('mnist-loader.batch-bytes', first.images.byteLength, 'B', 'computed', {
        detail: `byteLength of one [64,28,28,1] uint8 batch from ${mnist.source}`,
      }),
    );
  });

  it('visits every image exactly once per epoch, in a seeded order that changes per epoch', async ({ task }) => {
    const loader = new BatchLoader(mnist, ARTICLE_BATCH);
    const seen = new Uint8Array(mnist.count);
    let batches = 0;
    for (const batch of loader.epoch(0)) {
      for (const i of batch.indices) seen[i]!++;
      batches++;
    }
    expect(seen.every((n) => n === 1)).toBe(true);
    expect(batches).toBe(Math.ceil(mnist.count / 64));
    const again = new BatchLoader(mnist, ARTICLE_BATCH).epoch(0).next().value!;
    expect(again.indices).toEqual(loader.epoch(0).next().value!.indices);
    expect(loader.epoch(1).next().value!.indices).not.toEqual(again.indices);
    await recordMetrics(
      task,
      exactMetric('mnist-loader.batches-per-epoch', batches, 'batches', 'computed', {
        detail: `${mnist.count} images from ${mnist.source}, batch 64, last partial batch kept`,
      }),
    );
  });
});
