/**
 * The host-free half of the dtypes scenario (section 11): its batches and their encoding into
 * every wire type, shared by Node's perf/11-dtypes.perf.ts (through dtype-batches.ts, which adds
 * the Node session's data) and the browser page's perf/browser/11-dtypes.perf.ts.
 */
import { BatchLoader } from '../data/loader.js';
import type { ImageDataset } from '../data/dataset.js';
import { ARTICLE_NORMALIZATION } from '../transfer/normalization.js';
import { encodePixels, type EncodedPixels } from '../transfer/wire/payload.js';
import { WIRE_DTYPES, type WireDtype } from '../transfer/wire-dtypes.js';
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

/** One batch encoded as every wire type, ready to send (host encoding is not timed). */
export type EncodedBatch = Record<WireDtype, EncodedPixels>;

/** Encodes one pixel batch as uint8, int8, float16 and float32 payloads. */
export function encodeAllTypes(pixels: Uint8Array, shape: readonly number[]): EncodedBatch {
  const entries = WIRE_DTYPES.map((d) => [d, encodePixels(d, pixels, shape, ARTICLE_NORMALIZATION)] as const);
  return Object.fromEntries(entries) as EncodedBatch;
}

/** The first `count` full batches of the article's loader over `mnist`, each encoded as every wire type. */
export function encodeMnistBatches(mnist: ImageDataset, count: number): EncodedBatch[] {
  const loader = new BatchLoader(mnist, { ...ARTICLE_BATCH, dropLast: true });
  const out: EncodedBatch[] = [];
  for (const batch of loader.epoch(0)) {
    if (out.length === count) break;
    out.push(encodeAllTypes(batch.images, batch.shape));
  }
  return out;
}
