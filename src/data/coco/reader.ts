/**
 * A COCO-format segmentation data set (article section 7): images in a folder, objects in an
 * instances JSON, read as torchvision's CocoDetection(root, annFile) does, but each sample's
 * target is ONE semantic mask [H, W] of class indices instead of a list of objects.
 *
 * Class index = 1 + position of the category in `categories` sorted by id (0 = background), so
 * COCO's 80 sparse ids 1..90 become 1..80. Objects paint over earlier ones in file order;
 * iscrowd objects are painted too. Items that cannot be used are skipped and listed in
 * `summary.skipped` with a reason; a data set with nothing usable is an error.
 */
import { stat } from 'node:fs/promises';
import { NotRegularFileError, readRegularFile } from '../../base/regular-file.js';
import { join } from 'node:path';
import type { Dataset, Sample } from '../dataset.js';
import { countByReason, describeSkipped, errorMessage, type SkippedItem } from '../media-errors.js';
import { type CocoCategory, type CocoImage, classIndexByCategory, readCocoInstances } from './annotations.js';
import { decodeRgb, ImageDecodeError, readImageHeader, type RgbImage } from './decode-image.js';
import { type SegmentationKind, SegmentationError, parseSegmentation } from './segmentation.js';
import { classHistogram, type MaskLayer, paintSemanticMask } from './semantic-mask.js';

/** Thrown when a COCO folder is unusable as a whole (missing, or nothing usable in it). */
export class CocoDataError extends Error {
  override readonly name = 'CocoDataError';
}

/** Why an image or annotation was skipped. */
export type CocoSkipReason =
  | 'missing-file'
  | 'corrupt-image'
  | 'size-mismatch'
  | 'unknown-image'
  | 'unknown-category'
  | 'no-segmentation'
  | 'malformed-segmentation';

export interface CocoOptions {
  /** The images folder (torchvision's `root`, e.g. coco/val2017). */
  readonly root: string;
  /** The instances JSON (torchvision's `annFile`). */
  readonly annotations: string;
  /**
   * 'decode' (default): decode every image once up front, so corrupt files are skipped and the
   * counts are exact. 'header': read only headers (fast on 100k images); a file whose pixel data
   * is damaged is then found only when `load` decodes it, and `load` throws.
   */
  readonly verify?: 'decode' | 'header';
}

/** One class of the semantic masks, with exact counts over the usable images. */
export interface CocoClassSummary {
  readonly classIndex: number;
  readonly categoryId: number;
  readonly name: string;
  /** Usable annotations of this category (on usable images). */
  readonly annotations: number;
  /** Sum of each annotation's own mask area at native size: pycocotools' annToMask(ann).sum(). */
  readonly maskArea: number;
  /** Pixels of this class in the painted semantic masks (after later objects cover earlier ones). */
  readonly semanticPixels: number;
}

/** Exact counts of what was read and what was skipped. */
export interface CocoSummary {
  readonly annotationsFile: string;
  readonly imagesFolder: string;
  readonly imagesListed: number;
  readonly annotationsListed: number;
  readonly categories: number;
  /** Usable images (all become samples, including those with no objects: all background). */
  readonly images: number;
  /** Usable annotations painted onto usable images. */
  readonly annotations: number;
  /** Annotations by how their segmentation was written (usable ones only). */
  readonly annotationKinds: Readonly<Record<SegmentationKind, number>>;
  readonly crowdAnnotations: number;
  /** Valid annotations dropped because their image was skipped. */
  readonly annotationsOnSkippedImages: number;
  readonly skipped: ReadonlyArray<SkippedItem<CocoSkipReason>>;
  readonly skippedByReason: Readonly<Partial<Record<CocoSkipReason, number>>>;
  /** Index 0 = background, then one entry per category sorted by id. */
  readonly classes: readonly CocoClassSummary[];
  readonly backgroundPixels: number;
}

/** One usable image and the objects to paint on it, in file order. */
interface CocoItem {
  readonly image: CocoImage;
  readonly path: string;
  readonly layers: readonly MaskLayer[];
}

/** A COCO data set: samples are [H,W,3] RGB images (sizes vary) with an [H,W] class mask. */
export interface CocoDataset extends Dataset<Uint8Array> {
  readonly summary: CocoSummary;
  /** Class names by class index: 'background', then the categories sorted by id. */
  readonly classNames: readonly string[];
  /** The JSON entry of the image behind sample `index`. */
  imageInfo(index: number): CocoImage;
}

/** A usable annotation waiting for its image's check. */
interface PendingLayer extends MaskLayer {
  readonly annotationId: number;
  readonly categoryId: number;
  readonly kind: SegmentationKind;
  readonly crowd: boolean;
}

/** Sorts annotations onto their images; unusable ones go to `skipped`. */
function groupAnnotations(
  data: Awaited<ReturnType<typeof readCocoInstances>>,
  classOf: ReadonlyMap<number, number>,
  skipped: Array<SkippedItem<CocoSkipReason>>,
): Map<number, PendingLayer[]> {
  const imagesById = new Map(data.images.map((image) => [image.id, image]));
  const byImage = new Map<number, PendingLayer[]>();
  for (const ann of data.annotations) {
    const item = `annotation ${ann.id}`;
    const image = imagesById.get(ann.image_id);
    if (image === undefined) {
      skipped.push({ item, reason: 'unknown-image', detail: `image_id ${ann.image_id} is not in "images"` });
      continue;
    }
    const classIndex = classOf.get(ann.category_id);
    if (classIndex === undefined) {
      skipped.push({ item, reason: 'unknown-category', detail: `category_id ${ann.category_id} is not in "categories"` });
      continue;
    }
    if (ann.segmentation === undefined) {
      // A detection-only (bbox) annotation: nothing to paint. pycocotools' annToMask fails on it too.
      const bbox: unknown = ann.bbox;
      const isBox = Array.isArray(bbox) && bbox.length === 4 && bbox.every((n) => typeof n === 'number');
      const box = isBox ? ` (only a bbox [${bbox.join(', ')}])` : '';
      skipped.push({ item, reason: 'no-segmentation', detail: `on image ${image.id}: no "segmentation" field${box}` });
      continue;
    }
    try {
      const { kind, rles } = parseSegmentation(ann.segmentation, image.height, image.width);
      const list = byImage.get(image.id) ?? [];
      list.push({ annotationId: ann.id, categoryId: ann.category_id, classIndex, rles, kind, crowd: ann.iscrowd === 1 });
      byImage.set(image.id, list);
    } catch (error) {
      if (!(error instanceof SegmentationError)) throw error;
      skipped.push({ item, reason: 'malformed-segmentation', detail: `on image ${image.id}: ${error.message}` });
    }
  }
  return byImage;
}

/** Why `image` cannot be used, or undefined when its file is there, decodes and has the JSON's size. */
async function checkImage(image: CocoImage, path: string, verify: 'decode' | 'header'): Promise<SkippedItem<CocoSkipReason> | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await readRegularFile(path);
  } catch (error) {
    if (error instanceof NotRegularFileError)
      return { item: path, reason: 'missing-file', detail: `image ${image.id} "${image.file_name}" is ${error.reason}; not opened` };
    const code = (error as NodeJS.ErrnoException).code;
    return { item: path, reason: 'missing-file', detail: `image ${image.id} "${image.file_name}" cannot be read (${code ?? errorMessage(error)})` };
  }
  let size: { height: number; width: number };
  try {
    size = verify === 'decode' ? await decodeRgb(bytes) : await readImageHeader(bytes);
  } catch (error) {
    if (!(error instanceof ImageDecodeError)) throw error;
    return { item: path, reason: 'corrupt-image', detail: `image ${image.id}: ${error.message}` };
  }
  if (size.height !== image.height || size.width !== image.width) {
    return {
      item: path,
      reason: 'size-mismatch',
      detail: `image ${image.id}: the file is ${size.height}x${size.width} (height x width), the JSON says ${image.height}x${image.width}`,
    };
  }
  return undefined;
}

/** Throws a CocoDataError unless `root` is a readable directory. */
async function checkFolder(root: string): Promise<void> {
  const info = await stat(root).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) {
    throw new CocoDataError(
      `${root}: cannot open the COCO images folder (${info.code ?? info.message}); pass the folder holding the image files, e.g. coco/val2017`,
    );
  }
  if (!info.isDirectory()) throw new CocoDataError(`${root}: not a directory; pass the folder holding the image files, e.g. coco/val2017`);
}

/** Reads a COCO instances JSON and its images folder into a segmentation Dataset. */
export async function loadCoco(options: CocoOptions): Promise<CocoDataset> {
  const { root, annotations, verify = 'decode' } = options;
  await checkFolder(root);
  const data = await readCocoInstances(annotations);
  const sortedCategories: CocoCategory[] = [...data.categories].sort((a, b) => a.id - b.id);
  const classOf = classIndexByCategory(data.categories);
  const classCount = sortedCategories.length + 1;

  const skipped: Array<SkippedItem<CocoSkipReason>> = [];
  const byImage = groupAnnotations(data, classOf, skipped);

  const items: CocoItem[] = [];
  const annotationCounts = new Array<number>(classCount).fill(0);
  const maskAreas = new Array<number>(classCount).fill(0);
  const semanticPixels = new Array<number>(classCount).fill(0);
  const kinds: Record<SegmentationKind, number> = { polygon: 0, rle: 0, 'compressed-rle': 0 };
  let crowd = 0;
  let onSkippedImages = 0;
  for (const image of data.images) {
    const path = join(root, image.file_name);
    const layers = byImage.get(image.id) ?? [];
    const problem = await checkImage(image, path, verify);
    if (problem !== undefined) {
      skipped.push(problem);
      onSkippedImages += layers.length;
      continue;
    }
    items.push({ image, path, layers });
    const { mask, areas } = paintSemanticMask(image.height, image.width, layers);
    layers.forEach((layer, k) => {
      annotationCounts[layer.classIndex]!++;
      maskAreas[layer.classIndex]! += areas[k]!;
      kinds[layer.kind]++;
      if (layer.crowd) crowd++;
    });
    classHistogram(mask, classCount).forEach((n, c) => {
      semanticPixels[c]! += n;
    });
  }

  const classes: CocoClassSummary[] = [
    { classIndex: 0, categoryId: 0, name: 'background', annotations: 0, maskArea: 0, semanticPixels: semanticPixels[0]! },
    ...sortedCategories.map((c, i) => ({
      classIndex: i + 1,
      categoryId: c.id,
      name: c.name,
      annotations: annotationCounts[i + 1]!,
      maskArea: maskAreas[i + 1]!,
      semanticPixels: semanticPixels[i + 1]!,
    })),
  ];
  const used = annotationCounts.reduce((a, b) => a + b, 0);
  const summary: CocoSummary = {
    annotationsFile: annotations,
    imagesFolder: root,
    imagesListed: data.images.length,
    annotationsListed: data.annotations.length,
    categories: sortedCategories.length,
    images: items.length,
    annotations: used,
    annotationKinds: kinds,
    crowdAnnotations: crowd,
    annotationsOnSkippedImages: onSkippedImages,
    skipped,
    skippedByReason: countByReason(skipped),
    classes,
    backgroundPixels: semanticPixels[0]!,
  };

  if (items.length === 0) {
    throw new CocoDataError(
      `${annotations} with images in ${root}: no usable image among ${data.images.length} listed (${describeSkipped(skipped)}); ` +
        'check that root is the folder the file_name entries are relative to',
    );
  }
  if (used === 0) {
    throw new CocoDataError(
      `${annotations}: none of the ${data.annotations.length} annotations is usable on the ${items.length} usable images ` +
        `(${describeSkipped(skipped)}); every mask would be background`,
    );
  }
  return makeDataset(items, summary, ['background', ...sortedCategories.map((c) => c.name)]);
}

/** The Dataset over checked items: `load` decodes the image and paints its mask. */
function makeDataset(items: readonly CocoItem[], summary: CocoSummary, classNames: readonly string[]): CocoDataset {
  const itemAt = (index: number): CocoItem => {
    const item = items[index];
    if (item === undefined || !Number.isInteger(index)) throw new RangeError(`COCO sample ${index} out of range 0..${items.length - 1}`);
    return item;
  };
  return {
    count: items.length,
    source: `COCO ${summary.annotationsFile} + images in ${summary.imagesFolder}`,
    sampleShape: null,
    summary,
    classNames,
    imageInfo: (index) => itemAt(index).image,
    async load(index: number): Promise<Sample<Uint8Array>> {
      const { image, path, layers } = itemAt(index);
      let rgb: RgbImage;
      try {
        rgb = await decodeRgb(await readRegularFile(path));
      } catch (error) {
        throw new CocoDataError(`${path}: image ${image.id} was checked when the data set was loaded but now fails: ${errorMessage(error)}`);
      }
      if (rgb.height !== image.height || rgb.width !== image.width) {
        throw new CocoDataError(`${path}: now ${rgb.height}x${rgb.width}, the JSON says ${image.height}x${image.width}; the file changed after loading`);
      }
      const { mask } = paintSemanticMask(image.height, image.width, layers);
      return { pixels: rgb.pixels, shape: [image.height, image.width, 3], target: mask };
    },
  };
}
