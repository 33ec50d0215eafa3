import * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../../backend/types.js';
import { ARTICLE_NORMALIZATION, type Normalization } from '../normalization.js';
import type { StagedTransfer } from './staged-transfer.js';

/**
 * What users would write instead of device-normalize (issue 13), to be timed against it: both
 * turn a batch of raw uint8 pixels into the same normalized float32 tensor on the device.
 */

/** A batch of raw pixels, one contiguous [N, ...image] uint8 buffer. */
export interface RawBatch {
  readonly images: Uint8Array;
  readonly shape: readonly number[];
}

/**
 * The naive tfjs port of "send uint8, normalize on the GPU": tfjs has no uint8 dtype, so the
 * bytes become an int32 tensor (4 bytes per pixel on the wire, as many as float32) and two
 * elementwise kernels normalize it. The caller syncs and disposes.
 */
export function naiveTfjsNormalize(batch: RawBatch, n: Normalization = ARTICLE_NORMALIZATION): tf.Tensor {
  return tf.tidy(() =>
    tf
      .tensor(batch.images, [...batch.shape], 'int32')
      .sub(n.mean)
      .div(n.std),
  );
}

/**
 * The naive port, staged for the stage breakdown: no host work, the int32 tensor uploaded (and
 * synced) on its own, then its two kernels. Its least device work: reading int32 and writing
 * float32, 8 bytes per element, had the two kernels been one.
 */
export function naiveTfjsStaged(context: BackendContext, n: Normalization = ARTICLE_NORMALIZATION): StagedTransfer {
  return {
    id: 'naive-tfjs',
    wireBytesPerElement: 4,
    passBytesPerElement: 8,
    prepare: (pixels) => pixels,
    upload(payload, shape) {
      const t = tf.tensor(payload as Uint8Array, [...shape], 'int32');
      context.upload(t);
      return t;
    },
    compute: (resident) => tf.tidy(() => resident.sub(n.mean).div(n.std)),
  };
}

/**
 * A tf.data input pipeline over the batch's images: a generator yielding each image's bytes
 * (views, no copy), `map` normalizing each as the naive port does, `batch(batchSize)` stacking
 * them into one tensor. Resolves to the first batch (the caller syncs and disposes it).
 */
export async function tfDataNormalize(batch: RawBatch, n: Normalization = ARTICLE_NORMALIZATION, batchSize = batch.shape[0]!): Promise<tf.Tensor> {
  const [count, ...imageShape] = batch.shape as [number, ...number[]];
  const pixelsPerImage = tf.util.sizeFromShape(imageShape);
  const images = batch.images;
  const dataset = tf.data
    .generator(function* () {
      for (let i = 0; i < count; i++) yield images.subarray(i * pixelsPerImage, (i + 1) * pixelsPerImage);
    })
    .map((image) =>
      tf.tidy(() =>
        tf
          .tensor(image as Uint8Array, imageShape, 'int32')
          .sub(n.mean)
          .div(n.std),
      ),
    )
    .batch(batchSize);
  const iterator = await dataset.iterator();
  const { value, done } = await iterator.next();
  if (done) throw new Error('tf.data pipeline gave no batch');
  return value as tf.Tensor;
}
