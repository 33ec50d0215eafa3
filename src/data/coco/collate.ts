/**
 * Batching COCO samples of different sizes (the article's COCO loader cannot: default_collate
 * needs equal sizes). Each image is letterboxed into a size x size square on the host while still
 * uint8: resized keeping its aspect ratio so the longer side fits, then padded, centred. Images
 * are resized bilinearly, masks by nearest neighbour (resize.ts, hand-written, synchronous).
 */
import type { Collate, PixelBatchOf, Sample } from '../dataset.js';
import { resizeBilinear, resizeNearest } from './resize.js';

/** Where one image landed in its square: scale, resized size and the padding before it. */
export interface Letterbox {
  readonly scale: number;
  readonly height: number;
  readonly width: number;
  readonly top: number;
  readonly left: number;
}

/** The masks of a batch, [B, size, size] uint8, and where each image sits in its square. */
export interface SegmentationTargets {
  /** Own ArrayBuffer of exactly B*size*size bytes, byteOffset 0. */
  readonly masks: Uint8Array;
  readonly shape: readonly [number, number, number];
  readonly letterboxes: readonly Letterbox[];
}

export interface LetterboxOptions {
  /** The square side in pixels. */
  readonly size: number;
  /** The byte the padding of images holds (default 0, black). */
  readonly imagePad?: number;
  /** The class index the padding of masks holds (default 0, background; 255 as an ignore index). */
  readonly maskPad?: number;
}

/** The aspect-preserving fit of a height x width image into a size x size square, centred. */
export function letterbox(height: number, width: number, size: number): Letterbox {
  const scale = Math.min(size / height, size / width);
  const h = Math.min(size, Math.max(1, Math.round(height * scale)));
  const w = Math.min(size, Math.max(1, Math.round(width * scale)));
  return { scale, height: h, width: w, top: Math.floor((size - h) / 2), left: Math.floor((size - w) / 2) };
}

/** Throws unless `value` is an integer in [min, max]. */
function checkInt(name: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`letterboxCollate: ${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
}

/** Checks that a sample is an [H,W,3] image with an [H,W] mask. */
function checkSample(sample: Sample<Uint8Array>, k: number): [number, number] {
  const [h, w, c] = sample.shape;
  if (sample.shape.length !== 3 || c !== 3 || !h || !w) {
    throw new RangeError(`letterboxCollate: sample ${k} has shape [${sample.shape.join(', ')}], expected [H, W, 3]`);
  }
  if (sample.pixels.length !== h * w * 3 || sample.target.length !== h * w) {
    throw new RangeError(`letterboxCollate: sample ${k} holds ${sample.pixels.length} pixel bytes and ${sample.target.length} mask bytes for [${h}, ${w}, 3]`);
  }
  return [h, w];
}

/** A Collate that letterboxes images [H,W,3] and masks [H,W] into [B,S,S,3] and [B,S,S]. */
export function letterboxCollate(options: LetterboxOptions): Collate<Uint8Array, SegmentationTargets> {
  const { size, imagePad = 0, maskPad = 0 } = options;
  checkInt('size', size, 1, 16384);
  checkInt('imagePad', imagePad, 0, 255);
  checkInt('maskPad', maskPad, 0, 255);
  return (samples, indices): PixelBatchOf<SegmentationTargets> => {
    if (indices.length !== samples.length) throw new RangeError(`letterboxCollate: ${samples.length} samples but ${indices.length} indices`);
    const b = samples.length;
    const pixels = new Uint8Array(b * size * size * 3).fill(imagePad);
    const masks = new Uint8Array(b * size * size).fill(maskPad);
    const letterboxes = samples.map((sample, k) => {
      const [h, w] = checkSample(sample, k);
      const box = letterbox(h, w, size);
      const imageStart = (k * size * size + box.top * size + box.left) * 3;
      resizeBilinear(sample.pixels, h, w, 3, box.height, box.width, { dst: pixels, offset: imageStart, rowStride: size * 3 });
      const maskStart = k * size * size + box.top * size + box.left;
      resizeNearest(sample.target, h, w, box.height, box.width, { dst: masks, offset: maskStart, rowStride: size });
      return box;
    });
    return { pixels, shape: [b, size, size, 3], targets: { masks, shape: [b, size, size], letterboxes }, indices };
  };
}
