/**
 * Batching labelled images of any size: each is resized or letterboxed (fit.ts) into its slot of
 * ONE fresh [B, H, W, 3] uint8 buffer, and the labels go into an Int32Array: the batch form
 * Kinetics' collateClips gives, so the transfer strategies take it as they take COCO's pixels.
 */
import type { Collate, PixelBatchOf } from '../dataset.js';
import type { ImageSize } from '../shape.js';
import { drawFitted, type ImageFit } from './fit.js';
import type { ImageResample } from './options.js';

export interface FitOptions {
  readonly size: ImageSize;
  readonly fit: ImageFit;
  /** Default 'antialias' (torchvision's). */
  readonly resample?: ImageResample;
}

/** A Collate from [h, w, 3] images labelled with their class index to [B, H, W, 3] plus labels. */
export function fitCollate(options: FitOptions): Collate<number, Int32Array> {
  const { size, fit, resample = 'antialias' } = options;
  const imageBytes = size.height * size.width * 3;
  return (samples, indices): PixelBatchOf<Int32Array> => {
    if (indices.length !== samples.length) throw new RangeError(`fitCollate: ${samples.length} samples but ${indices.length} indices`);
    // Fresh, so zero: the letterbox padding (drawFitted writes only the placed image).
    const pixels = new Uint8Array(samples.length * imageBytes);
    const labels = new Int32Array(samples.length);
    samples.forEach((sample, k) => {
      const [h, w, c] = sample.shape;
      if (sample.shape.length !== 3 || c !== 3 || !h || !w || sample.pixels.length !== h * w * 3) {
        throw new RangeError(`fitCollate: sample ${k} has shape [${sample.shape.join(', ')}] and ${sample.pixels.length} bytes, expected [H, W, 3]`);
      }
      drawFitted(sample.pixels, h, w, size, fit, pixels, k * imageBytes, resample);
      labels[k] = sample.target;
    });
    return { pixels, shape: [samples.length, size.height, size.width, 3], targets: labels, indices };
  };
}
