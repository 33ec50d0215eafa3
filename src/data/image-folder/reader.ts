/**
 * An image folder read as torchvision's `ImageFolder(root)` with a fixed-size transform, in ONE
 * pass: every listed file is read and decoded once, in torchvision's order, and put into
 * batches of `batchSize` (the last may be short, as DataLoader(drop_last=False)); the summary
 * (what was decoded, what was skipped and why) comes out of that same pass. A file that does not
 * decode is skipped and counted, never an error; a folder with no decodable image at all is.
 *
 * Decoding is ../coco/decode-image.ts decodeRgb, the COCO reader's: sharp with failOn 'warning'
 * (a truncated file is an error, not grey blocks), no ICC or EXIF rotation, `removeAlpha()` then
 * `toColourspace('srgb')`: PIL's `convert('RGB')`, grey replicated to R=G=B, alpha dropped (not
 * composited onto a background), palette images expanded. 8-bit images only.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import sharp, { type FormatEnum } from 'sharp';
import { decodeRgb, ImageDecodeError, type RgbImage } from '../coco/decode-image.js';
import type { PixelBatchOf, Sample } from '../dataset.js';
import type { TimedBatch } from '../loader.js';
import { countByReason, describeSkipped, errorMessage, type SkippedItem } from '../media-errors.js';
import { type ImageSize, MAX_IMAGE_SIDE } from '../shape.js';
import { fitCollate } from './collate.js';
import { ImageFolderError } from './errors.js';
import type { ImageFit } from './fit.js';
import { IMG_EXTENSIONS, type IgnoredEntries, type ImageFile, type ImageFolderLayout, scanImageFolder } from './layout.js';

/** How the pass turns files into batches. */
export interface ImageFolderBatchOptions {
  /** The size every image is brought to. */
  readonly size: ImageSize;
  /** 'resize' (stretch) or 'letterbox' (keep aspect, pad with 0); default 'resize'. */
  readonly fit?: ImageFit;
  readonly batchSize: number;
}

export interface ImageFolderOptions extends ImageFolderBatchOptions {
  /** The folder holding one subfolder per class (torchvision's `root`). */
  readonly root: string;
}

/**
 * Why a listed file was skipped. 'unsupported-format': its extension is one torchvision lists
 * but this sharp build has no decoder for (its prebuilt libvips reads no PPM, PGM or BMP).
 */
export type ImageFolderSkipReason = 'unreadable-file' | 'undecodable-image' | 'unsupported-format';

/** Exact counts of one pass. */
export interface ImageFolderSummary {
  readonly root: string;
  readonly classes: readonly string[];
  readonly size: ImageSize;
  readonly fit: ImageFit;
  /** Files with an image extension in the class folders (torchvision's samples). */
  readonly filesListed: number;
  /** Files decoded and put into batches. */
  readonly images: number;
  /** Images decoded per class, in class index order (0 for a class folder without images). */
  readonly perClass: ReadonlyArray<{ readonly name: string; readonly images: number }>;
  readonly batches: number;
  readonly skipped: ReadonlyArray<SkippedItem<ImageFolderSkipReason>>;
  readonly skippedByReason: Readonly<Partial<Record<ImageFolderSkipReason, number>>>;
  /** Not listed at all: hidden entries, files without an image extension, files outside classes. */
  readonly ignored: IgnoredEntries;
}

/** A whole folder in memory: all its batches (N*H*W*3 bytes) and the summary of their pass. */
export interface ImageFolder {
  readonly classes: readonly string[];
  /** The listed files; a batch's `indices` are positions in this list. */
  readonly files: readonly ImageFile[];
  readonly batches: ReadonlyArray<PixelBatchOf<Int32Array>>;
  readonly summary: ImageFolderSummary;
}

/** The sharp input format behind each of torchvision's extensions (BMP would need ImageMagick). */
const SHARP_FORMAT: Readonly<Record<(typeof IMG_EXTENSIONS)[number], keyof FormatEnum>> = {
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.png': 'png',
  '.ppm': 'ppm',
  '.pgm': 'ppm',
  '.bmp': 'magick',
  '.tif': 'tiff',
  '.tiff': 'tiff',
  '.webp': 'webp',
};

/** Whether this sharp build decodes files with the extension of `path` from memory. */
function sharpDecodes(path: string): boolean {
  const format = SHARP_FORMAT[extname(path).toLowerCase() as keyof typeof SHARP_FORMAT];
  return format === undefined || sharp.format[format].input.buffer;
}

/** The decoded RGB image at `path`, or why it is skipped. */
async function decodeFile(path: string): Promise<RgbImage | SkippedItem<ImageFolderSkipReason>> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    return { item: path, reason: 'unreadable-file', detail: `cannot be read (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})` };
  }
  try {
    return await decodeRgb(bytes);
  } catch (error) {
    if (!(error instanceof ImageDecodeError)) throw error;
    if (!sharpDecodes(path)) {
      const ext = extname(path).slice(1).toUpperCase();
      return { item: path, reason: 'unsupported-format', detail: `sharp (libvips ${sharp.versions.vips}) has no ${ext} decoder; convert it to PNG or JPEG` };
    }
    return { item: path, reason: 'undecodable-image', detail: error.message };
  }
}

/** Throws unless the options describe a pass that can run. */
function checkOptions(options: ImageFolderBatchOptions): void {
  const { size, fit = 'resize', batchSize } = options;
  for (const [name, side] of [
    ['height', size.height],
    ['width', size.width],
  ] as const) {
    if (!Number.isSafeInteger(side) || side < 1 || side > MAX_IMAGE_SIDE)
      throw new RangeError(`image folder: size.${name} must be an integer in 1..${MAX_IMAGE_SIDE}, got ${side}`);
  }
  if (fit !== 'resize' && fit !== 'letterbox') throw new RangeError(`image folder: fit must be 'resize' or 'letterbox', got ${String(fit)}`);
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`image folder: batchSize must be an integer >= 1, got ${batchSize}`);
}

/** The one-line error for a pass that decoded nothing. */
function nothingDecoded(layout: ImageFolderLayout, skipped: ReadonlyArray<SkippedItem<ImageFolderSkipReason>>): ImageFolderError {
  const { root, classes, files, ignored } = layout;
  if (files.length === 0) {
    return new ImageFolderError(
      `${root}: no image file in its ${classes.length} class folder(s) (${ignored.notImage} other file(s) ignored); ` +
        `add images named ${IMG_EXTENSIONS.join(' ')} (any case)`,
    );
  }
  return new ImageFolderError(`${root}: none of its ${files.length} image file(s) decodes (${describeSkipped(skipped)}); replace or convert them`);
}

/**
 * The pass over a scanned folder: yields each batch with the host time its files took to read
 * and decode (loadMs, skipped files included) and to resize and collate (collateMs), and
 * returns the summary when done. Throws ImageFolderError, before yielding, if nothing decodes.
 * Holds one batch at a time, so it suits folders too big for loadImageFolder.
 */
export async function* imageFolderBatches(
  layout: ImageFolderLayout,
  options: ImageFolderBatchOptions,
): AsyncGenerator<TimedBatch<Int32Array>, ImageFolderSummary> {
  checkOptions(options);
  const { size, fit = 'resize', batchSize } = options;
  const collate = fitCollate({ size, fit });
  const skipped: Array<SkippedItem<ImageFolderSkipReason>> = [];
  const perClass = layout.classes.map(() => 0);
  let images = 0;
  let batches = 0;
  let next = 0;
  while (next < layout.files.length) {
    const start = performance.now();
    const samples: Array<Sample<number>> = [];
    const indices: number[] = [];
    for (; next < layout.files.length && samples.length < batchSize; next++) {
      const { path, classIndex } = layout.files[next]!;
      const decoded = await decodeFile(path);
      if ('reason' in decoded) {
        skipped.push(decoded);
        continue;
      }
      samples.push({ pixels: decoded.pixels, shape: [decoded.height, decoded.width, 3], target: classIndex });
      indices.push(next);
      perClass[classIndex]!++;
    }
    if (samples.length === 0) break;
    const loaded = performance.now();
    const batch = collate(samples, Uint32Array.from(indices));
    images += samples.length;
    batches++;
    yield { batch, loadMs: loaded - start, collateMs: performance.now() - loaded };
  }
  if (images === 0) throw nothingDecoded(layout, skipped);
  return {
    root: layout.root,
    classes: layout.classes,
    size: { height: size.height, width: size.width },
    fit,
    filesListed: layout.files.length,
    images,
    perClass: layout.classes.map((name, c) => ({ name, images: perClass[c]! })),
    batches,
    skipped,
    skippedByReason: countByReason(skipped),
    ignored: layout.ignored,
  };
}

/** Lists, decodes and batches a whole image folder; throws ImageFolderError if it is unusable. */
export async function loadImageFolder(options: ImageFolderOptions): Promise<ImageFolder> {
  checkOptions(options);
  const layout = await scanImageFolder(options.root);
  const pass = imageFolderBatches(layout, options);
  const batches: Array<PixelBatchOf<Int32Array>> = [];
  for (;;) {
    const step = await pass.next();
    if (step.done) return { classes: layout.classes, files: layout.files, batches, summary: step.value };
    batches.push(step.value.batch);
  }
}
