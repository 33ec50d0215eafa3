// Article section 9 in a browser page: the bytes one MNIST batch moves to the device along each
// path, counted at the API the backend uploads through (WebGPU mapped ranges and writeBuffer,
// WebGL texture and buffer uploads). Exact: the same batch moves the same bytes every time.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ARTICLE_BATCH,
  ARTICLE_DEVICE_VS_HOST_BOUND,
  ARTICLE_NORMALIZATION,
  BatchLoader,
  bytesMetric,
  countSynced,
  cpuNormalize,
  deviceNormalize,
  hasPackedKernel,
  int32DeviceNormalize,
  LeakCheck,
  maxAbsDiff,
  normalizeOnHost,
  qualityMetric,
  recordMetrics,
  useBackend,
  useMnist,
  type BackendContext,
  type Batch,
  type TransferStrategy,
} from 'gpu-transfer-perf/browser';

// Node's bound for the article's normalization on a device against the host's (perf/04,
// src/measure/float-bounds.ts: 8 roundings on the device, 1 on the host).
const BOUND = ARTICLE_DEVICE_VS_HOST_BOUND;

/**
 * What one batch moves, per backend, counted at its API. webgpu: 1 B a pixel raw, 4 B float32
 * (the article's 50,176 vs 200,704 B). webgl: the float32 values, and the raw pixels as int32
 * (32-bit texels whatever the dtype, so no saving) plus 32 B, two RGBA float32 texels, most
 * likely the mean and std scalars (measured 2026-12-06 in Chromium 156, SwiftShader; the same
 * 32 B at every batch size of the sweep).
 */
const EXPECTED_BYTES: Partial<Record<string, Record<string, number>>> = {
  webgpu: { 'cpu-normalize': 200_704, 'device-normalize': 50_176 },
  webgl: { 'cpu-normalize': 200_704, 'device-normalize': 200_736 },
};

let context: BackendContext;
let batch: Batch;
let strategies: TransferStrategy[];

beforeAll(async () => {
  context = await useBackend();
  batch = new BatchLoader(await useMnist(), ARTICLE_BATCH).epoch(0).next().value!;
  // Where there is no packed uint8 kernel (webgl), raw pixels go up as an int32 tensor.
  strategies = [cpuNormalize(context), hasPackedKernel() ? deviceNormalize() : int32DeviceNormalize(context)];
});

describe('bytes on the wire per [64,28,28,1] batch, in the browser (section 9)', () => {
  it('counts each strategy at the API and reads the same values back', async ({ task }) => {
    const leaks = new LeakCheck();
    const reference = normalizeOnHost(batch.images, ARTICLE_NORMALIZATION);
    for (const strategy of strategies) {
      const { result, bytes } = await countSynced(context, () => strategy.toDevice(batch));
      const values = (await result.data()) as Float32Array;
      result.dispose();
      const labels = { strategy: strategy.id, wire: `${strategy.wireBytesPerPixel()} B/pixel` };
      await recordMetrics(
        task,
        bytesMetric(`browser-mnist.bytes.${strategy.id}`, bytes.dataBytes, 'measured', {
          detail: `data bytes counted at the ${context.name} API (${context.transfers.boundary}) for one [64,28,28,1] batch`,
          labels,
        }),
        qualityMetric(
          `browser-mnist.max-abs-diff.${strategy.id}`,
          maxAbsDiff(values, reference),
          { max: BOUND },
          {
            detail: 'largest |device - host| over the batch against (x - 127.5) / 127.5 computed on the host in float32',
            labels,
          },
        ),
      );
      // Every value the host would have sent arrived; within float32 rounding of the host's.
      expect(values.length).toBe(reference.length);
      expect(maxAbsDiff(values, reference)).toBeLessThanOrEqual(BOUND);
      expect(bytes.dataBytes).toBe(EXPECTED_BYTES[context.name]?.[strategy.id]);
    }
    expect(leaks.leakedTensors()).toBe(0);
  });
});
