/**
 * The shapes every data source in src/data shares, whatever it holds (MNIST digits, COCO images
 * with masks, Kinetics clips): samples of raw uint8 pixels plus a target of any kind, read by
 * index (a map-style dataset, as torch.utils.data.Dataset), and a collate step that turns a list
 * of samples into one batch whose pixels are ONE contiguous uint8 buffer (one upload).
 */

/** One sample: raw pixels, [H,W,C] for an image or [T,H,W,C] for a clip, and its target. */
export interface Sample<Target> {
  readonly pixels: Uint8Array;
  readonly shape: readonly number[];
  readonly target: Target;
}

/** A finite, indexable collection of samples. `load` may decode files (then it is slow and async). */
export interface Dataset<Target> {
  readonly count: number;
  /** Human-readable: where the data came from (package name, folder, file). */
  readonly source: string;
  /** The shape every sample has, or null when sizes vary (collate must resize). */
  readonly sampleShape: readonly number[] | null;
  load(index: number): Promise<Sample<Target>>;
}

/** A batch: pixels [B, ...sampleShape] in one contiguous buffer, and the batch's targets. */
export interface PixelBatchOf<Targets> {
  /** byteOffset 0, its own ArrayBuffer of exactly product(shape) bytes. */
  readonly pixels: Uint8Array;
  readonly shape: readonly number[];
  readonly targets: Targets;
  /** The dataset index of each sample in the batch. */
  readonly indices: Uint32Array;
}

/** Turns samples (possibly of different sizes) into one batch. */
export type Collate<Target, Targets> = (samples: ReadonlyArray<Sample<Target>>, indices: Uint32Array) => PixelBatchOf<Targets>;

/** Images as raw bytes plus one label per image, all of one size, held in memory (MNIST). */
export interface ImageDataset {
  /** count*height*width*channels bytes, each image stored HWC, images back to back. */
  readonly images: Uint8Array;
  /** One class label per image. */
  readonly labels: Uint8Array;
  readonly count: number;
  readonly height: number;
  readonly width: number;
  readonly channels: number;
  /** Human-readable: where the data came from (package name, file paths). */
  readonly source: string;
}

function checkDimension(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`ImageDataset: ${name} must be an integer >= ${min}, got ${value}`);
  }
}

/** An ImageDataset after checking that the byte and label counts match the declared shape. */
export function makeImageDataset(fields: ImageDataset): ImageDataset {
  const { images, labels, count, height, width, channels, source } = fields;
  checkDimension('count', count, 0);
  checkDimension('height', height, 1);
  checkDimension('width', width, 1);
  checkDimension('channels', channels, 1);
  const expectedBytes = count * height * width * channels;
  if (images.length !== expectedBytes) {
    throw new RangeError(
      `ImageDataset from ${source}: images holds ${images.length} bytes, but ` + `${count}x${height}x${width}x${channels} needs ${expectedBytes}`,
    );
  }
  if (labels.length !== count) {
    throw new RangeError(`ImageDataset from ${source}: ${labels.length} labels for ${count} images`);
  }
  // Copy the fields so a caller's object (maybe with extra properties) is not aliased.
  return Object.freeze({ images, labels, count, height, width, channels, source });
}
