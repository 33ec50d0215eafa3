/**
 * Batching clips: every clip has the same [T,H,W,3] shape (the reader scales all frames to one
 * size), so collating is a copy into one contiguous [B,T,H,W,3] buffer plus int32 labels.
 */
import type { Collate, PixelBatchOf } from '../dataset.js';

/** Stacks [T,H,W,3] clips into [B,T,H,W,3] uint8 and their class indices into Int32Array labels. */
export const collateClips: Collate<number, Int32Array> = (samples, indices): PixelBatchOf<Int32Array> => {
  if (samples.length === 0) throw new RangeError('collateClips: no samples');
  if (indices.length !== samples.length) throw new RangeError(`collateClips: ${samples.length} samples but ${indices.length} indices`);
  const shape = samples[0]!.shape;
  const clipBytes = shape.reduce((a, b) => a * b, 1);
  // A fresh ArrayBuffer of exactly B*clipBytes bytes: one upload, no offset handling.
  const pixels = new Uint8Array(samples.length * clipBytes);
  const labels = new Int32Array(samples.length);
  samples.forEach((sample, k) => {
    if (sample.shape.length !== shape.length || sample.shape.some((d, i) => d !== shape[i])) {
      throw new RangeError(`collateClips: sample ${k} has shape [${sample.shape.join(', ')}], sample 0 has [${shape.join(', ')}]`);
    }
    if (sample.pixels.length !== clipBytes) throw new RangeError(`collateClips: sample ${k} holds ${sample.pixels.length} bytes, its shape needs ${clipBytes}`);
    pixels.set(sample.pixels, k * clipBytes);
    labels[k] = sample.target;
  });
  return { pixels, shape: [samples.length, ...shape], targets: labels, indices };
};
