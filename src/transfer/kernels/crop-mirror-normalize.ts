import { util } from '@tensorflow/tfjs-core';
/**
 * Crop-mirror-normalize, the preprocessing step of DALI's `fn.crop_mirror_normalize`, as one
 * pass from raw uint8 pixels to the float32 tensor a model takes: crop a window of every frame,
 * optionally flip it horizontally, normalize each channel with its own mean and std, and
 * optionally move channels first (HWC -> CHW for images, THWC -> TCHW for clips).
 * This file holds the description, its validation and the CPU reference; the device program is
 * crop-mirror-normalize-program.ts, the tfjs kernel crop-mirror-normalize-kernel.ts.
 */

/** Output layout: keep channels last, or move them before the spatial axes. */
export type PixelLayout = 'HWC' | 'CHW';

/** A window of every frame, in pixels from the top-left corner. */
export interface CropWindow {
  readonly y: number;
  readonly x: number;
  readonly height: number;
  readonly width: number;
}

/** What to do to a batch of uint8 pixels. */
export interface CropMirrorNormalizeSpec {
  /** Input shape, channels last: [N, H, W, C] images or [N, T, H, W, C] clips. */
  readonly inputShape: readonly number[];
  /** Window kept from every frame; the whole frame when absent. */
  readonly crop?: CropWindow;
  /** Flip every frame left-right (after cropping). */
  readonly mirror?: boolean;
  /** Per-channel mean and std on the 0..255 pixel scale, one entry per channel. */
  readonly mean: readonly number[];
  readonly std: readonly number[];
  /** 'HWC': [N, h, w, C] / [N, T, h, w, C]; 'CHW': [N, C, h, w] / [N, T, C, h, w]. */
  readonly layout: PixelLayout;
}

// ImageNet's mean and std on the 0..255 scale, defined with the other normalizations.
export { IMAGENET_NORMALIZATION } from '../normalization.js';

/** The spec resolved into the numbers a kernel needs. */
export interface CropMirrorNormalizeGeometry {
  /** Frames in the batch: N for images, N x T for clips. */
  readonly frames: number;
  readonly inHeight: number;
  readonly inWidth: number;
  readonly channels: number;
  readonly crop: CropWindow;
  readonly mirror: boolean;
  readonly mean: readonly number[];
  readonly std: readonly number[];
  readonly layout: PixelLayout;
  readonly inputSize: number;
  readonly outputShape: number[];
}

function positiveInteger(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${what} must be a positive integer, got ${value}`);
}

/** Validates a spec and works out frames, crop and the output shape; throws RangeError on bad input. */
export function resolveCropMirrorNormalize(spec: CropMirrorNormalizeSpec): CropMirrorNormalizeGeometry {
  const shape = spec.inputShape;
  if (shape.length !== 4 && shape.length !== 5) {
    throw new RangeError(`inputShape must be [N, H, W, C] or [N, T, H, W, C], got [${shape.join(', ')}]`);
  }
  for (const [i, d] of shape.entries()) positiveInteger(d, `inputShape[${i}]`);
  const [inHeight, inWidth, channels] = shape.slice(-3) as [number, number, number];
  const leading = shape.slice(0, -3); // [N] or [N, T]
  const crop = spec.crop ?? { y: 0, x: 0, height: inHeight, width: inWidth };
  positiveInteger(crop.height, 'crop.height');
  positiveInteger(crop.width, 'crop.width');
  if (!Number.isInteger(crop.y) || !Number.isInteger(crop.x) || crop.y < 0 || crop.x < 0 || crop.y + crop.height > inHeight || crop.x + crop.width > inWidth) {
    throw new RangeError(`crop ${JSON.stringify(crop)} is not inside the ${inHeight}x${inWidth} frame`);
  }
  for (const [name, values] of [
    ['mean', spec.mean],
    ['std', spec.std],
  ] as const) {
    if (values.length !== channels) throw new RangeError(`${name} has ${values.length} entries for ${channels} channels`);
    if (!values.every(Number.isFinite)) throw new RangeError(`${name} must be finite numbers`);
  }
  if (spec.std.some((s) => s === 0)) throw new RangeError('std must not be 0');
  const spatial = spec.layout === 'CHW' ? [channels, crop.height, crop.width] : [crop.height, crop.width, channels];
  return {
    frames: util.sizeFromShape(leading),
    inHeight,
    inWidth,
    channels,
    crop,
    mirror: spec.mirror ?? false,
    mean: [...spec.mean],
    std: [...spec.std],
    layout: spec.layout,
    inputSize: util.sizeFromShape([...shape]),
    outputShape: [...leading, ...spatial],
  };
}

/**
 * CPU reference: out = (pixel - mean[c]) / std[c] in float64, rounded once to float32, read
 * from the cropped (and mirrored) window and written in the requested layout.
 */
export function cropMirrorNormalizeOnHost(pixels: Uint8Array, spec: CropMirrorNormalizeSpec, into?: Float32Array): Float32Array {
  const g = resolveCropMirrorNormalize(spec);
  if (pixels.length !== g.inputSize) throw new RangeError(`pixels has ${pixels.length} bytes, inputShape needs ${g.inputSize}`);
  const { frames, inHeight, inWidth, channels: C, crop, mirror, mean, std } = g;
  const h = crop.height;
  const w = crop.width;
  const out = into ?? new Float32Array(frames * C * h * w);
  if (out.length !== frames * C * h * w) throw new RangeError(`into has ${out.length} elements, the output ${frames * C * h * w}`);
  for (let f = 0; f < frames; f++) {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const sx = crop.x + (mirror ? w - 1 - x : x);
        const src = ((f * inHeight + crop.y + y) * inWidth + sx) * C;
        for (let c = 0; c < C; c++) {
          const dst = g.layout === 'CHW' ? ((f * C + c) * h + y) * w + x : ((f * h + y) * w + x) * C + c;
          out[dst] = (pixels[src + c]! - mean[c]!) / std[c]!;
        }
      }
    }
  }
  return out;
}
