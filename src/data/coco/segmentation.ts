/**
 * One annotation's `segmentation` field turned into RLEs, as pycocotools' COCO.annToRLE reads it
 * (cocodataset/cocoapi, PythonAPI/pycocotools/coco.py): a list of polygons (one RLE each, their
 * union is the object), an uncompressed RLE `{size, counts: number[]}` (used for iscrowd=1), or a
 * compressed RLE `{size, counts: string}`.
 */
import { z } from 'zod';
import { rasterizePolygon } from './polygon.js';
import { decodeRleString, makeRle, type Rle, RleError } from './rle.js';

/** Thrown for a segmentation that cannot be turned into a mask of its image; the reader skips it. */
export class SegmentationError extends Error {
  override readonly name = 'SegmentationError';
}

const polygonsSchema = z.array(z.array(z.number()), { error: 'polygons must be arrays of numbers' }).min(1, 'an empty list of polygons');
const rleSchema = z.object({
  size: z.tuple([z.int().nonnegative(), z.int().nonnegative()], { error: 'size must be [height, width]' }),
  counts: z.union([z.string(), z.array(z.number())], { error: 'counts must be a string (compressed) or an array of run lengths' }),
});

/** How a segmentation was written, for summaries. */
export type SegmentationKind = 'polygon' | 'rle' | 'compressed-rle';

/** A parsed segmentation: the RLEs whose union is the object's mask. */
export interface ParsedSegmentation {
  readonly kind: SegmentationKind;
  readonly rles: readonly Rle[];
}

/** The first zod issue as `path: message`. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? 'invalid' : `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}

/** Runs `make`, rethrowing an RleError as a SegmentationError with `where` in front. */
function wrap<T>(where: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof RleError) throw new SegmentationError(`${where}: ${error.message}`);
    throw error;
  }
}

/** The RLEs of a segmentation on a height x width image; throws SegmentationError when malformed. */
export function parseSegmentation(segmentation: unknown, height: number, width: number): ParsedSegmentation {
  if (Array.isArray(segmentation)) {
    const polygons = polygonsSchema.safeParse(segmentation);
    if (!polygons.success) throw new SegmentationError(`polygon list: ${firstIssue(polygons.error)}`);
    return { kind: 'polygon', rles: polygons.data.map((xy, i) => wrap(`polygon ${i}`, () => rasterizePolygon(xy, height, width))) };
  }
  if (typeof segmentation !== 'object' || segmentation === null) {
    throw new SegmentationError(`expected a list of polygons or an RLE object, got ${segmentation === null ? 'null' : typeof segmentation}`);
  }
  const rle = rleSchema.safeParse(segmentation);
  if (!rle.success) throw new SegmentationError(`RLE: ${firstIssue(rle.error)}`);
  const [h, w] = rle.data.size;
  // pycocotools decodes an RLE at its own size; a class mask needs it to be the image's size.
  if (h !== height || w !== width) {
    throw new SegmentationError(`RLE size [${h}, ${w}] disagrees with the image's ${height}x${width} (height x width)`);
  }
  const { counts } = rle.data;
  return typeof counts === 'string'
    ? { kind: 'compressed-rle', rles: [wrap('compressed RLE', () => decodeRleString(counts, h, w))] }
    : { kind: 'rle', rles: [wrap('uncompressed RLE', () => makeRle(h, w, counts))] };
}
