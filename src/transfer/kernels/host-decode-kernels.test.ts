import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cropMirrorNormalizeOnHost, IMAGENET_NORMALIZATION, type CropMirrorNormalizeSpec } from './crop-mirror-normalize.js';
import { cropMirrorNormalize } from './crop-mirror-normalize-kernel.js';
import { float16BitsToFloat32 } from '../wire/float16.js';
import { ARTICLE_NORMALIZATION, normalizeOnHost } from '../normalization.js';
import { NORMALIZE_PACKED_BYTES, type NormalizePackedAttrs } from './normalize-packed-kernel.js';
import { packBytes } from '../wire/packed-bytes.js';
import { centerPixels } from '../wire/payload.js';
import type { PackedWireDtype } from '../wire-dtypes.js';

// CI runs the suite on webgpu; this runs the int8/float16 decode and the crop-mirror-normalize
// kernels of the host backends too, on every `npm test`, then restores the suite's backend.

/** Runs the decode kernel on words whose padding bytes are garbage, and reads the result. */
async function decode(values: Uint8Array | Int8Array | Uint16Array, wire: PackedWireDtype): Promise<Float32Array> {
  const { words } = packBytes(values);
  new Uint8Array(words.buffer).fill(0xab, values.byteLength);
  const packed = tf.tensor1d(words, 'int32');
  const attrs: NormalizePackedAttrs = { shape: [values.length], wire, mean: 0, std: 1 };
  const out = tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
  packed.dispose();
  const data = (await out.data()) as Float32Array;
  out.dispose();
  return data;
}

const pixels = Uint8Array.from({ length: 259 }, (_, i) => i % 256); // every byte value, 3 padding bytes
const halves = Uint16Array.from([0x3c00, 0xc000, 0x0001, 0x7bff, 0x3555]); // odd: half a word of padding
const clip: CropMirrorNormalizeSpec = {
  inputShape: [1, 3, 5, 7, 3],
  crop: { y: 1, x: 1, height: 4, width: 5 },
  mirror: true,
  layout: 'CHW',
  ...IMAGENET_NORMALIZATION,
};

describe.each(['cpu', 'wasm'])('packed-payload kernels on the %s backend', (backendName) => {
  let previous: string | undefined;
  beforeAll(async () => {
    previous = tf.getBackend() as string | undefined; // undefined when this file runs alone
    expect(await tf.setBackend(backendName)).toBe(true);
  });
  afterAll(async () => {
    if (previous) await tf.setBackend(previous);
  });

  it.each([
    [[2, 28, 28, 1]],
    [[1, 5, 7, 3]], // 105 bytes: the last word carries 3 padding bytes
  ])('normalizes packed uint8 like the host reference, shape %j', async (shape) => {
    const size = tf.util.sizeFromShape(shape);
    const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 53 + 7) % 256);
    const words = tf.tensor1d(packBytes(bytes).words, 'int32');
    const attrs: NormalizePackedAttrs = { shape, wire: 'uint8', ...ARTICLE_NORMALIZATION };
    const out = tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed: words }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
    expect(out.shape).toEqual(shape);
    expect(out.dtype).toBe('float32');
    expect(await out.data()).toEqual(normalizeOnHost(bytes, ARTICLE_NORMALIZATION));
    tf.dispose([words, out]);
  });

  it('decodes uint8, int8 and float16 exactly; the padding never reaches the output', async () => {
    expect(await decode(pixels, 'uint8')).toEqual(Float32Array.from(pixels));
    expect(await decode(centerPixels(pixels), 'int8')).toEqual(Float32Array.from(pixels, (x) => x - 128));
    expect(await decode(halves, 'float16')).toEqual(Float32Array.from(halves, float16BitsToFloat32));
  });

  it('runs crop-mirror-normalize as the CPU reference', async () => {
    const input = Uint8Array.from({ length: 315 }, (_, i) => (i * 53 + 7) % 256);
    const out = cropMirrorNormalize(input, clip);
    expect(out.shape).toEqual([1, 3, 3, 4, 5]);
    expect(await out.data()).toEqual(cropMirrorNormalizeOnHost(input, clip));
    out.dispose();
  });
});

describe('wasm memory growth', () => {
  let previous: string | undefined;
  beforeAll(async () => {
    previous = tf.getBackend() as string | undefined;
    expect(await tf.setBackend('wasm')).toBe(true);
  });
  afterAll(async () => {
    if (previous) await tf.setBackend(previous);
  });

  it('does not break the kernels when allocating their output grows the wasm heap', async () => {
    // An output larger than the whole heap forces memory.grow, which detaches every view of the
    // old heap: the kernels must take their input view after allocating the output.
    // The Emscripten module's HEAPU8 spans the whole wasm memory (its type, @types/emscripten, is not installed).
    const heapBytes = () => ((tf.backend() as BackendWasm).wasm as unknown as { HEAPU8: Uint8Array }).HEAPU8.length;
    const before = heapBytes();
    const count = before / 4 + 4096;
    const input = new Uint8Array(count);
    for (let i = 0; i < count; i++) input[i] = i % 251;
    const decoded = await decode(input, 'uint8');
    expect(heapBytes()).toBeGreaterThan(before);
    expect(decoded[count - 1]).toBe((count - 1) % 251);
    expect(decoded[12345]).toBe(12345 % 251);

    const grown = heapBytes();
    const side = Math.ceil(Math.sqrt(grown / 4 / 3)) + 8; // one RGB frame whose float32 output exceeds the heap
    const frame = new Uint8Array(side * side * 3);
    for (let i = 0; i < frame.length; i++) frame[i] = i % 253;
    const spec: CropMirrorNormalizeSpec = { inputShape: [1, side, side, 3], layout: 'CHW', mean: [0, 0, 0], std: [1, 1, 1] };
    const out = cropMirrorNormalize(frame, spec);
    const values = (await out.data()) as Float32Array;
    out.dispose();
    expect(heapBytes()).toBeGreaterThan(grown);
    expect(values[0]).toBe(frame[0]);
    expect(values[side * side]).toBe(frame[1]); // channel 1 of pixel 0, first in its plane
  });
});
