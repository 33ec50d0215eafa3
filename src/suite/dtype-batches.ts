import * as tf from '@tensorflow/tfjs';
import type { Scale } from '../run-config.js';
import { seededRng } from '../base/random.js';
import { DTYPE_BATCHES, type EncodedBatch, encodeAllTypes, encodeMnistBatches } from './dtype-encode.js';
import { useMnist } from './session.js';

export { DTYPE_BATCHES, type DtypeBatch, type EncodedBatch } from './dtype-encode.js';

/**
 * Interleaved rounds (4 transfers each) for the large batch, per scale; the MNIST batch uses the
 * speedup scenario's pair counts (SIZES). A large round moves ~39 MB (4.8 M elements at 1 + 1 +
 * 2 + 4 bytes), ~50 ms on a software device; `npm test` runs the benches too, so quick keeps
 * this batch near one second and its CIs are correspondingly wide.
 */
export const LARGE_BATCH_ROUNDS: Record<Scale, { rounds: number; warmupRounds: number }> = {
  quick: { rounds: 12, warmupRounds: 2 },
  full: { rounds: 100, warmupRounds: 10 },
};

/** The first `count` full batches of the article's loader, each encoded as every wire type. */
export async function encodedMnistBatches(count: number): Promise<EncodedBatch[]> {
  return encodeMnistBatches(await useMnist(), count);
}

/** The large batch: seeded uniform random pixels (transfer cost does not depend on content). */
export function encodedLargeBatch(): EncodedBatch {
  const shape = DTYPE_BATCHES.large.shape;
  const rng = seededRng(224);
  const pixels = new Uint8Array(tf.util.sizeFromShape([...shape])); // 4,816,896: a multiple of 4
  const words = new Uint32Array(pixels.buffer);
  for (let i = 0; i < words.length; i++) words[i] = rng.int(2 ** 32);
  return encodeAllTypes(pixels, shape);
}
