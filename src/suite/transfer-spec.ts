import { beforeAll, expect, it } from 'vitest';
import type { BackendContext } from '../backend/types.js';
import { BatchLoader, type Batch } from '../data/loader.js';
import { maxAbsDiff } from '../measure/statistics.js';
import { LeakCheck } from '../measure/memory.js';
import { bytesMetric, qualityMetric } from '../results/metrics.js';
import { ARTICLE_NORMALIZATION, normalizeOnHost } from '../transfer/normalization.js';
import { cpuNormalize, deviceNormalize, type StrategyId, type TransferStrategy } from '../transfer/strategies/strategies.js';
import { itLeavesNoTensors } from './record.js';
import { countAndRead, type Readback } from './readback.js';
import { recordMetrics } from './record.js';
import { useBackend, useMnist } from './session.js';
import { ARTICLE_BATCH } from './sizes.js';

// The article's float bound lives host-free (the browser's perf files use it too).
export { ARTICLE_DEVICE_VS_HOST_BOUND } from './article-bounds.js';
import { ARTICLE_DEVICE_VS_HOST_BOUND } from './article-bounds.js';

/** The strategy of that id on the running backend. */

export function strategyFor(context: BackendContext, id: StrategyId): TransferStrategy {
  return id === 'cpu-normalize' ? cpuNormalize(context) : deviceNormalize();
}

/** The first batch of the article's loader, the batch every transfer scenario sends. */
export async function firstArticleBatch(): Promise<Batch> {
  return new BatchLoader(await useMnist(), ARTICLE_BATCH).epoch(0).next().value!;
}

/** Moves a batch with a strategy and reads the result back. */
export function transferAndRead(context: BackendContext, strategy: TransferStrategy, batch: Pick<Batch, 'images' | 'shape'>): Promise<Readback> {
  return countAndRead(context, () => strategy.toDevice(batch));
}

/**
 * The checks every transfer strategy must pass (sections 2 and 4): the bytes that really cross
 * to the device, values equal to the host reference, odd sizes, no leaked tensors.
 */
export function describeStrategyTransfer(id: StrategyId, expected: { expectedUploadBytes: number }): void {
  let context: BackendContext;
  let strategy: TransferStrategy;
  let batch: Batch;
  let leaks: LeakCheck;

  beforeAll(async () => {
    context = await useBackend();
    strategy = strategyFor(context, id);
    batch = await firstArticleBatch();
    leaks = new LeakCheck();
  });

  it(`sends ${expected.expectedUploadBytes.toLocaleString('en-US')} bytes of data per [64,28,28,1] batch`, async ({ task }) => {
    const { bytes } = await transferAndRead(context, strategy, batch);
    expect(bytes.dataBytes).toBe(expected.expectedUploadBytes);
    expect(bytes.dataBytes).toBe(batch.images.length * strategy.wireBytesPerPixel());
    const labels = { strategy: id };
    await recordMetrics(
      task,
      bytesMetric(`mnist-transfer.upload-bytes.${id}`, bytes.dataBytes, 'measured', {
        detail: `tensor data host->device for one batch; counted at ${context.transfers.boundary}`,
        labels,
      }),
      bytesMetric(`mnist-transfer.uniform-bytes.${id}`, bytes.uniformBytes, 'measured', {
        detail: `parameters counted apart from tensor data for the same batch (WebGPU: uniform buffers; tensorflow: scalars and int32 tensors); counted at ${context.transfers.boundary}`,
        labels,
      }),
    );
  });

  const bound = ARTICLE_DEVICE_VS_HOST_BOUND;

  it('produces the host reference (x - 127.5) / 127.5 within float32 rounding of its operations', async ({ task }) => {
    const { values, shape } = await transferAndRead(context, strategy, batch);
    expect(shape).toEqual([64, 28, 28, 1]);
    const diff = maxAbsDiff(values, normalizeOnHost(batch.images, ARTICLE_NORMALIZATION));
    expect(diff).toBeLessThanOrEqual(bound);
    await recordMetrics(
      task,
      qualityMetric(
        `mnist-transfer.max-abs-diff-vs-host.${id}`,
        diff,
        { max: bound },
        {
          detail: 'largest |device result - float64 host reference rounded to float32| over the batch',
          labels: { strategy: id },
        },
      ),
    );
  });

  it('handles a batch whose byte count is not a multiple of 4 (padding never reaches the output)', async () => {
    // 3 x 5 x 7 x 1 = 105 bytes: the last 32-bit word carries 3 padding bytes.
    const odd = { images: Uint8Array.from({ length: 105 }, (_, i) => (i * 37 + 11) % 256), shape: [3, 5, 7, 1] as const };
    const { values, shape } = await transferAndRead(context, strategy, odd);
    expect(shape).toEqual([3, 5, 7, 1]);
    expect(values).toHaveLength(105);
    expect(maxAbsDiff(values, normalizeOnHost(odd.images, ARTICLE_NORMALIZATION))).toBeLessThanOrEqual(bound);
  });

  itLeavesNoTensors(() => leaks);
}
