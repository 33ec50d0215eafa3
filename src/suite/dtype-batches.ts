import * as tf from '@tensorflow/tfjs';
import type { Scale } from '../run-config.js';
import { BatchLoader } from '../data/loader.js';
import { seededRng } from '../base/random.js';
import { ARTICLE_NORMALIZATION } from '../transfer/normalization.js';
import { encodePixels, type EncodedPixels } from '../transfer/wire/payload.js';
import { WIRE_DTYPES, type WireDtype } from '../transfer/wire-dtypes.js';
import { useMnist } from './session.js';
import { ARTICLE_BATCH } from './sizes.js';

/** One batch size of the dtypes scenario. */
export interface DtypeBatch {
  /** Article notation (NCHW), used in metric ids: '64x1x28x28'. */
  readonly id: string;
  readonly what: string;
  /** What the harness sends: channels last. */
  readonly shape: readonly number[];
}

/**
 * The batches the dtypes scenario sends, named in the article's NCHW notation (their id is part
 * of every metric id); the harness sends pixels channels-last.
 */
export const DTYPE_BATCHES: Readonly<Record<'mnist' | 'large', DtypeBatch>> = {
  mnist: { id: '64x1x28x28', what: "the article's MNIST batch, sent as [64,28,28,1]", shape: [64, 28, 28, 1] },
  large: { id: '32x3x224x224', what: 'an ImageNet-sized batch of seeded random pixels, sent as [32,224,224,3]', shape: [32, 224, 224, 3] },
};

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

/** One batch encoded as every wire type, ready to send (host encoding is not timed). */
export type EncodedBatch = Record<WireDtype, EncodedPixels>;

/** Encodes one pixel batch as uint8, int8, float16 and float32 payloads. */
function encodeAllTypes(pixels: Uint8Array, shape: readonly number[]): EncodedBatch {
  const entries = WIRE_DTYPES.map((d) => [d, encodePixels(d, pixels, shape, ARTICLE_NORMALIZATION)] as const);
  return Object.fromEntries(entries) as EncodedBatch;
}

/** The first `count` full batches of the article's loader, each encoded as every wire type. */
export async function encodedMnistBatches(count: number): Promise<EncodedBatch[]> {
  const loader = new BatchLoader(await useMnist(), { ...ARTICLE_BATCH, dropLast: true });
  const out: EncodedBatch[] = [];
  for (const batch of loader.epoch(0)) {
    if (out.length === count) break;
    out.push(encodeAllTypes(batch.images, batch.shape));
  }
  return out;
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
