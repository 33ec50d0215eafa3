/**
 * An image folder read as torchvision's `ImageFolder(root)` with a fixed-size transform, in ONE
 * pass: every listed file is read and decoded once, in torchvision's order, and put into
 * batches of `batchSize` (the last may be short, as DataLoader(drop_last=False)); the summary
 * (what was decoded, what was skipped and why) comes out of that same pass. A file that does not
 * decode is skipped and counted, never an error; a folder with no decodable image at all is.
 *
 * Decoding is decode.ts: PIL's `convert('RGB')` for every format torchvision reads. A file is
 * opened only if it is a regular file (a FIFO, socket or device named b.png is skipped, never
 * opened: opening a FIFO blocks until a writer comes), with O_NONBLOCK and a check of what was
 * opened, so a file swapped for a FIFO between the check and the open cannot block either.
 */
import { NotRegularFileError, readRegularFile } from '../../base/regular-file.js';
import type { PixelBatchOf, Sample } from '../dataset.js';
import type { TimedBatch } from '../loader.js';
import { countByReason, describeSkipped, errorMessage, type SkippedItem } from '../media-errors.js';
import { type ImageSize, MAX_IMAGE_SIDE } from '../shape.js';
import { fitCollate } from './collate.js';
import { decodeImage } from './decode.js';
import type { RgbImage } from '../coco/decode-image.js';
import { ImageFolderError } from './errors.js';
import type { ImageFit } from './fit.js';
import { IMG_EXTENSIONS, type IgnoredEntries, type ImageFile, type ImageFolderLayout, scanImageFolder } from './layout.js';
import { IMAGE_RESAMPLES, type ImageResample, PIL_MAX_IMAGE_PIXELS } from './options.js';

/** How the pass turns files into batches. */
export interface ImageFolderBatchOptions {
  /** The size every image is brought to. */
  readonly size: ImageSize;
  /** 'resize' (stretch) or 'letterbox' (keep aspect, pad with 0); default 'resize'. */
  readonly fit?: ImageFit;
  /** 'antialias' (torchvision's Resize on a PIL image, the default) or 'bilinear-no-antialias'. */
  readonly resample?: ImageResample;
  readonly batchSize: number;
  /** Images of more pixels are skipped before decoding; default PIL's MAX_IMAGE_PIXELS, 89,478,485. */
  readonly maxPixels?: number;
}

export interface ImageFolderOptions extends ImageFolderBatchOptions {
  /** The folder holding one subfolder per class (torchvision's `root`). */
  readonly root: string;
}

/**
 * Why a listed file or folder was skipped:
 * - 'unreadable-folder': a folder under a class that cannot be listed (os.walk skips it silently);
 * - 'dangling-link': a symbolic link to nothing or one that loops (torchvision lists it, then fails to open it);
 * - 'not-a-file': a FIFO, socket or device with an image name (torchvision would block or fail on it);
 * - 'unreadable-file': open or read failed;
 * - 'too-many-pixels': the header's size is above the pixel budget (never decoded);
 * - 'undecodable-image': no decoder takes it, or the data is damaged.
 */
export type ImageFolderSkipReason = 'unreadable-folder' | 'dangling-link' | 'not-a-file' | 'unreadable-file' | 'too-many-pixels' | 'undecodable-image';

/** Every skip reason, in the order a pass meets them (the record and console list them so). */
export const IMAGE_FOLDER_SKIP_REASONS: readonly ImageFolderSkipReason[] = [
  'unreadable-folder',
  'dangling-link',
  'not-a-file',
  'unreadable-file',
  'too-many-pixels',
  'undecodable-image',
];

/** Exact counts of one pass. */
export interface ImageFolderSummary {
  readonly root: string;
  readonly classes: readonly string[];
  readonly size: ImageSize;
  readonly fit: ImageFit;
  readonly resample: ImageResample;
  readonly maxPixels: number;
  /** Files with an image extension in the class folders (torchvision's samples). */
  readonly filesListed: number;
  /** Files decoded and put into batches. */
  readonly images: number;
  /** Images decoded per class, in class index order (0 for a class folder without images). */
  readonly perClass: ReadonlyArray<{ readonly name: string; readonly images: number }>;
  readonly batches: number;
  /** Every folder and file skipped, each with its reason and what exactly was wrong: folders first, then files in list order. */
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

/** The bytes of a regular file, or why it is skipped; never opens anything else, never blocks (base/regular-file.ts). */
async function readImageFile(file: ImageFile): Promise<Uint8Array | SkippedItem<ImageFolderSkipReason>> {
  const item = file.name;
  try {
    return new Uint8Array(await readRegularFile(file.path));
  } catch (error) {
    if (error instanceof NotRegularFileError) {
      const reason = error.kind === 'not-a-file' ? 'not-a-file' : 'dangling-link';
      return { item, reason, detail: `${error.reason}; not opened` };
    }
    return { item, reason: 'unreadable-file', detail: `cannot be read (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})` };
  }
}

/** The decoded RGB image of a listed file, or why it is skipped. */
async function decodeFile(file: ImageFile, maxPixels: number): Promise<RgbImage | SkippedItem<ImageFolderSkipReason>> {
  const bytes = await readImageFile(file);
  if (!(bytes instanceof Uint8Array)) return bytes;
  const decoded = await decodeImage(bytes, maxPixels);
  return 'reason' in decoded ? { item: file.name, ...decoded } : decoded;
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
  const { resample = 'antialias', maxPixels = PIL_MAX_IMAGE_PIXELS } = options;
  if (!IMAGE_RESAMPLES.includes(resample)) throw new RangeError(`image folder: resample must be one of ${IMAGE_RESAMPLES.join(', ')}, got ${String(resample)}`);
  if (!Number.isSafeInteger(maxPixels) || maxPixels < 1) throw new RangeError(`image folder: maxPixels must be an integer >= 1, got ${maxPixels}`);
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
  const { size, fit = 'resize', resample = 'antialias', batchSize, maxPixels = PIL_MAX_IMAGE_PIXELS } = options;
  const collate = fitCollate({ size, fit, resample });
  const skipped: Array<SkippedItem<ImageFolderSkipReason>> = [...layout.skippedFolders];
  const perClass = layout.classes.map(() => 0);
  let images = 0;
  let batches = 0;
  let next = 0;
  while (next < layout.files.length) {
    const start = performance.now();
    const samples: Array<Sample<number>> = [];
    const indices: number[] = [];
    for (; next < layout.files.length && samples.length < batchSize; next++) {
      const file = layout.files[next]!;
      const { classIndex } = file;
      const decoded = await decodeFile(file, maxPixels);
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
    resample,
    maxPixels,
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
