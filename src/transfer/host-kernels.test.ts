import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTICLE_NORMALIZATION, normalizeOnHost } from './normalization.js';
import { NORMALIZE_PACKED_BYTES } from './normalize-packed-kernel.js';
import { packBytes } from './packed-bytes.js';

// CI runs the suite on webgpu; this runs the packed-bytes kernel on the host backends too, so
// their code is exercised on every `npm test`. It restores the suite's backend afterwards.
describe.each(['cpu', 'wasm'])('NormalizePackedBytes on the %s backend', (backendName) => {
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
  ])('matches the host reference for shape %j', async (shape) => {
    const size = shape.reduce((a, b) => a * b, 1);
    const pixels = Uint8Array.from({ length: size }, (_, i) => (i * 53 + 7) % 256);
    const words = tf.tensor1d(packBytes(pixels).words, 'int32');
    const attrs = { shape, ...ARTICLE_NORMALIZATION };
    const out = tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed: words }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
    expect(out.shape).toEqual(shape);
    expect(out.dtype).toBe('float32');
    expect(await out.data()).toEqual(normalizeOnHost(pixels, ARTICLE_NORMALIZATION));
    tf.dispose([words, out]);
  });
});
