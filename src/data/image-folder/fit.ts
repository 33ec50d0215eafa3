/**
 * How a decoded image of any size becomes H x W, while still uint8 on the host:
 * - 'resize': stretched to H x W, aspect ratio not kept (torchvision `Resize((H, W))`).
 * - 'letterbox': scaled to fit inside H x W keeping its aspect ratio, centred, the rest 0.
 * Both resample as torchvision's `transforms.Resize` on a PIL image by default ('antialias':
 * PIL's BILINEAR, whose filter widens when shrinking; pil-resize.ts, equal to Pillow byte for
 * byte). 'bilinear-no-antialias' is the COCO collate's plain bilinear (../coco/resize.ts:
 * half-pixel centres, edge clamp, no antialias filter, as tf.image.resize bilinear and cv2
 * INTER_LINEAR): it differs from torchvision's pixels by up to 75 on shrunk images, and is kept
 * only to compare with the COCO scenario's host stage. Neither is sharp's resize: both are
 * synchronous and write straight into the batch buffer.
 */
import { resizeBilinear } from '../coco/resize.js';
import type { ImageSize } from '../shape.js';
import type { ImageResample } from './options.js';
import { resizePilBilinear } from './pil-resize.js';

export type ImageFit = 'resize' | 'letterbox';

/** Where the resized image lands in the H x W canvas. */
export interface Placement {
  readonly top: number;
  readonly left: number;
  readonly height: number;
  readonly width: number;
}

/**
 * The placement of a height x width image in `size`. Letterbox: scale = min(H/h, W/w), each side
 * rounded (at least 1), centred with the odd pixel of padding after it; for a square canvas this
 * is ../coco/collate.ts letterbox(h, w, S).
 */
export function placement(height: number, width: number, size: ImageSize, fit: ImageFit): Placement {
  if (fit === 'resize') return { top: 0, left: 0, height: size.height, width: size.width };
  const scale = Math.min(size.height / height, size.width / width);
  const h = Math.min(size.height, Math.max(1, Math.round(height * scale)));
  const w = Math.min(size.width, Math.max(1, Math.round(width * scale)));
  return { top: Math.floor((size.height - h) / 2), left: Math.floor((size.width - w) / 2), height: h, width: w };
}

/**
 * Resizes an [height, width, 3] RGB image into the H x W x 3 slot of `dst` starting at `offset`.
 * Only the placed rectangle is written: the letterbox padding keeps what the slot holds, which
 * is 0 in a fresh batch buffer.
 */
export function drawFitted(
  pixels: Uint8Array,
  height: number,
  width: number,
  size: ImageSize,
  fit: ImageFit,
  dst: Uint8Array,
  offset: number,
  resample: ImageResample = 'antialias',
): Placement {
  const box = placement(height, width, size, fit);
  const rowStride = size.width * 3;
  const target = { dst, offset: offset + box.top * rowStride + box.left * 3, rowStride };
  if (resample === 'antialias') resizePilBilinear(pixels, height, width, box.height, box.width, target);
  else resizeBilinear(pixels, height, width, 3, box.height, box.width, target);
  return box;
}
