// Article section 12 in a browser page: bytes and time per batch against batch size (32..512),
// both strategies in interleaved pairs synced with the device, the same sweep as Node's
// (src/suite/sweep.ts). It asserts only the exact bytes; the times go to the run record.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cpuNormalize,
  deviceNormalize,
  hasPackedKernel,
  int32DeviceNormalize,
  measureSweep,
  recordMetrics,
  SWEEP_SIZES,
  sweepMetrics,
  useBackend,
  useConfig,
  useMnist,
  WEBGL_SCALAR_BYTES,
  type BackendContext,
} from 'gpu-transfer-perf/browser';

let context: BackendContext;

beforeAll(async () => {
  context = await useBackend();
});

describe('transfer time against batch size, in the browser (section 12)', () => {
  it('times both strategies at batch sizes 32..512, interleaved and synced', async ({ task }) => {
    const raw = hasPackedKernel() ? deviceNormalize() : int32DeviceNormalize(context);
    const strategies = { a: cpuNormalize(context), b: raw };
    const points = await measureSweep(context, await useMnist(), strategies, SWEEP_SIZES[useConfig().scale]);
    for (const p of points) {
      expect(p.bytes.a.dataBytes).toBe(p.pixelsPerBatch * strategies.a.wireBytesPerPixel());
      // webgl: the pixels as int32 texels (as many bytes as float32) plus 32 B, two RGBA float32
      // texels, most likely the mean and std scalars tf.sub/tf.div upload (measured at every size).
      const expected = context.name === 'webgpu' ? p.pixelsPerBatch * raw.wireBytesPerPixel() : p.bytes.a.dataBytes + WEBGL_SCALAR_BYTES;
      expect(p.bytes.b.dataBytes).toBe(expected);
    }
    await recordMetrics(task, ...sweepMetrics(points, { a: 'cpu-normalize', b: 'device-normalize' }, context.transfers.boundary));
  });
});
