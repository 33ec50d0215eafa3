/**
 * A semantic (class-per-pixel) mask from COCO instance annotations: what a segmentation train
 * step wants, where COCO stores one binary mask per object.
 */
import { forEachForegroundPixel, type Rle } from './rle.js';

/** One object to paint: its class index (1.. = category, 0 = background) and its mask's parts. */
export interface MaskLayer {
  readonly classIndex: number;
  /** The object's mask is the union of these (one per polygon, or one RLE). */
  readonly rles: readonly Rle[];
}

/**
 * The row-major height x width class mask of `layers` painted in order: a later object paints
 * over an earlier one where they overlap (COCO has no depth order; file order is the rule here).
 * Also returns each layer's own area (pixels of its union, as pycocotools' annToMask(ann).sum()).
 */
export function paintSemanticMask(height: number, width: number, layers: readonly MaskLayer[]): { mask: Uint8Array; areas: number[] } {
  const mask = new Uint8Array(height * width);
  // stamp[o] = 1 + the last layer that covered o: counts each layer's union once per pixel.
  const stamp = new Uint32Array(height * width);
  const areas = layers.map((layer, k) => {
    let area = 0;
    for (const rle of layer.rles) {
      if (rle.height !== height || rle.width !== width) {
        throw new RangeError(`layer ${k}: RLE of ${rle.height}x${rle.width} on a ${height}x${width} mask`);
      }
      forEachForegroundPixel(rle, (o) => {
        if (stamp[o] !== k + 1) {
          stamp[o] = k + 1;
          area++;
        }
        mask[o] = layer.classIndex;
      });
    }
    return area;
  });
  return { mask, areas };
}

/** How many pixels of `mask` hold each class index 0..classes-1. */
export function classHistogram(mask: Uint8Array, classes: number): number[] {
  const counts = new Array<number>(classes).fill(0);
  for (let i = 0; i < mask.length; i++) counts[mask[i]!]!++;
  return counts;
}
