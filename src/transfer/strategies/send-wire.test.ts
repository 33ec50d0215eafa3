import * as tf from '@tensorflow/tfjs';
import { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installBackendWriteCounter } from '../../backend/backend-write-counter.js';
import { HOST_CAPABILITIES, startCpu } from '../../backend/host-backends.js';
import { recordCapabilities } from '../../backend/capabilities.js';
import { countSynced } from '../../backend/synced-transfers.js';
import type { BackendContext } from '../../backend/types.js';
import { maxAbsDiff } from '../../measure/statistics.js';
import { ARTICLE_DEVICE_VS_HOST_BOUND } from '../../suite/article-bounds.js';
import { encodeAllTypes } from '../../suite/dtype-encode.js';
import { NORMALIZE_PACKED_BYTES } from '../kernels/normalize-packed-kernel.js';
import { ARTICLE_NORMALIZATION, normalizeOnHost } from '../normalization.js';
import { WIRE_DTYPES, wireByteLength } from '../wire-dtypes.js';
import { sendPayload } from './send-payload.js';
import { sendWireType, wireCrossing } from './send-wire.js';

// sendWireType on a backend with the packed kernel (cpu) and on one without it, as webgl is in a
// browser: a cpu backend registered under another name with every cpu kernel but the packed one.
const BARE = 'cpu-without-packed-kernel';
const SHAPE = [2, 5, 7, 1]; // 70 elements: not a multiple of 4, so packed types pad their last word
const pixels = Uint8Array.from({ length: 70 }, (_, i) => (i * 37) % 256);
const reference = normalizeOnHost(pixels, ARTICLE_NORMALIZATION);
const encoded = encodeAllTypes(pixels, SHAPE);
let previous = '';

async function bareContext(): Promise<BackendContext> {
  if (!tf.findBackend(BARE)) {
    tf.registerBackend(BARE, () => new MathBackendCPU());
    for (const k of tf.getKernelsForBackend('cpu')) {
      if (k.kernelName !== NORMALIZE_PACKED_BYTES) tf.registerKernel({ ...k, backendName: BARE });
    }
  }
  await tf.setBackend(BARE);
  return {
    // The registry name, so the measurement finds its tensors on this context's backend.
    name: BARE as BackendContext['name'],
    reason: 'test: cpu without the packed kernel',
    adapter: null,
    isUsingGpuDevice: null,
    capabilities: recordCapabilities(HOST_CAPABILITIES.cpu),
    transfers: installBackendWriteCounter(tf.engine(), tf.backend(), 'test: backend.write'),
    upload: () => {},
    sync: async () => {},
  };
}

beforeAll(() => {
  previous = tf.getBackend();
});
afterAll(async () => {
  if (previous) await tf.setBackend(previous);
});

describe('sendWireType', () => {
  it('sends each type at its wire size where the packed kernel runs, the same values as the host', async () => {
    const context = await startCpu('test');
    for (const dtype of WIRE_DTYPES) {
      const crossing = wireCrossing(dtype);
      expect(crossing.as).toBe(dtype === 'float32' ? 'float32' : 'packed');
      const { result, bytes } = await countSynced(context, () => sendWireType(context, encoded[dtype]));
      const values = result.dataSync() as Float32Array;
      result.dispose();
      expect(bytes.dataBytes, dtype).toBe(wireByteLength(dtype, pixels.length));
      // float16 rounds the host-normalized value to half precision: its own, wider bound (2^-11 relative).
      expect(maxAbsDiff(values, reference), dtype).toBeLessThanOrEqual(dtype === 'float16' ? 2 ** -11 : ARTICLE_DEVICE_VS_HOST_BOUND);
    }
  });

  it('sends the integer types as int32 and float16 as float32 where there is no packed kernel (webgl), 4 B a value', async () => {
    const context = await bareContext();
    expect(tf.getBackend()).toBe(BARE);
    for (const dtype of WIRE_DTYPES) {
      const crossing = wireCrossing(dtype);
      expect(crossing.as, dtype).toBe(dtype === 'uint8' || dtype === 'int8' ? 'int32' : 'float32');
      expect(crossing.bytesPerElement).toBe(4);
      const { result, bytes } = await countSynced(context, () => sendWireType(context, encoded[dtype]));
      expect(result.dtype).toBe('float32');
      expect(result.shape).toEqual(SHAPE);
      const values = result.dataSync() as Float32Array;
      result.dispose();
      // int32: 4 B a value plus the mean and std as two float32 scalars (4 B each) on this host backend.
      expect(bytes.dataBytes, dtype).toBe(pixels.length * 4 + (crossing.as === 'int32' ? 8 : 0));
      expect(maxAbsDiff(values, reference), dtype).toBeLessThanOrEqual(dtype === 'float16' ? 2 ** -11 : ARTICLE_DEVICE_VS_HOST_BOUND);
    }
    // What sendWireType replaces there: sendPayload refuses a packed type without the kernel.
    expect(() => sendPayload(context, encoded.uint8.payload, encoded.uint8.deviceNormalization)).toThrow(/has no NormalizePackedBytes kernel/);
  });
});
