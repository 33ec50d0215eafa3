import type { Collate, Dataset, ImageDataset, PixelBatchOf, Sample } from './dataset.js';
import { deriveSeed, shuffledIndices } from '../base/random.js';

/** One minibatch, laid out for a single upload to the device. */
export interface Batch {
  /** ONE contiguous [B,H,W,C] buffer: byteOffset 0, its own ArrayBuffer of exactly B*H*W*C bytes. */
  readonly images: Uint8Array;
  readonly labels: Int32Array;
  /** [B, H, W, C]. */
  readonly shape: readonly [number, number, number, number];
  /** The dataset index of each image in the batch. */
  readonly indices: Uint32Array;
}

/** What PyTorch's DataLoader(batch_size, shuffle, drop_last) takes, plus the shuffle seed. */
export interface LoaderOptions {
  batchSize: number;
  shuffle: boolean;
  seed: number;
  dropLast: boolean;
}

function validateOptions(options: LoaderOptions): void {
  const { batchSize, shuffle, seed, dropLast } = options;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`BatchLoader: batchSize must be an integer >= 1, got ${batchSize}`);
  }
  if (typeof shuffle !== 'boolean') throw new TypeError(`BatchLoader: shuffle must be a boolean, got ${String(shuffle)}`);
  if (typeof dropLast !== 'boolean') throw new TypeError(`BatchLoader: dropLast must be a boolean, got ${String(dropLast)}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`BatchLoader: seed must be a safe integer, got ${seed}`);
}

/** The dataset indices of each batch of one epoch: seeded by (seed, epoch) when shuffling. */
export function epochBatchIndices(count: number, options: LoaderOptions, epoch: number): Uint32Array[] {
  validateOptions(options);
  if (!Number.isSafeInteger(epoch) || epoch < 0) throw new RangeError(`epoch must be an integer >= 0, got ${epoch}`);
  const { batchSize, shuffle, seed, dropLast } = options;
  const order = shuffle ? shuffledIndices(count, deriveSeed(seed, epoch)) : Uint32Array.from({ length: count }, (_, i) => i);
  const batches = dropLast ? Math.floor(count / batchSize) : Math.ceil(count / batchSize);
  // slice(), not subarray(): each batch owns its indices.
  return Array.from({ length: batches }, (_, b) => order.slice(b * batchSize, Math.min((b + 1) * batchSize, count)));
}

/**
 * Endless full batches: the seeded epoch orders (epoch 0, 1, ...) one after another, cut into
 * batches of exactly `batchSize`, like iterating a loader over and over without drop_last
 * gaps. A batch spans two epochs at their seam, and holds an item twice only when the data set
 * has fewer items than a batch (e.g. a 12-image fixture in batches of 16).
 */
export function* streamBatchIndices(count: number, batchSize: number, seed: number): Generator<Uint32Array> {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`streamBatchIndices: count must be an integer >= 1, got ${count}`);
  let epoch = 0;
  let order = shuffledIndices(count, deriveSeed(seed, epoch));
  let at = 0;
  for (;;) {
    const batch = new Uint32Array(batchSize);
    for (let k = 0; k < batchSize; k++) {
      if (at === count) {
        order = shuffledIndices(count, deriveSeed(seed, ++epoch));
        at = 0;
      }
      batch[k] = order[at++]!;
    }
    yield batch;
  }
}

/** A batch from a DatasetLoader, with the host time its two stages took (host clock). */
export interface TimedBatch<Targets> {
  readonly batch: PixelBatchOf<Targets>;
  /** Reading and decoding the samples (files, codecs). */
  readonly loadMs: number;
  /** Collating them into one contiguous buffer (resize, letterbox, copy). */
  readonly collateMs: number;
}

/**
 * Batches of any Dataset (files decoded on demand) through a collate step, in the same seeded
 * order as BatchLoader; each batch reports how long loading and collating took.
 */
export class DatasetLoader<Target, Targets> {
  constructor(
    private readonly dataset: Dataset<Target>,
    private readonly collate: Collate<Target, Targets>,
    private readonly options: Readonly<LoaderOptions>,
  ) {
    validateOptions(options);
  }

  get batchesPerEpoch(): number {
    const { batchSize, dropLast } = this.options;
    return dropLast ? Math.floor(this.dataset.count / batchSize) : Math.ceil(this.dataset.count / batchSize);
  }

  async *epoch(epoch: number): AsyncGenerator<TimedBatch<Targets>> {
    for (const indices of epochBatchIndices(this.dataset.count, this.options, epoch)) yield this.batchOf(indices);
  }

  /** Endless full batches across epochs (streamBatchIndices), for timing loops. */
  async *stream(): AsyncGenerator<TimedBatch<Targets>> {
    for (const indices of streamBatchIndices(this.dataset.count, this.options.batchSize, this.options.seed)) yield this.batchOf(indices);
  }

  /** Loads and collates the samples at `indices`, timing both stages. */
  async batchOf(indices: Uint32Array): Promise<TimedBatch<Targets>> {
    const start = performance.now();
    const samples: Sample<Target>[] = [];
    for (const i of indices) samples.push(await this.dataset.load(i));
    const loaded = performance.now();
    const batch = this.collate(samples, indices);
    return { batch, loadMs: loaded - start, collateMs: performance.now() - loaded };
  }
}

/** Cuts an in-memory image dataset into minibatches like torch.utils.data.DataLoader, reproducibly. */
export class BatchLoader {
  private readonly dataset: ImageDataset;
  private readonly options: Readonly<LoaderOptions>;

  constructor(dataset: ImageDataset, options: LoaderOptions) {
    validateOptions(options);
    this.dataset = dataset;
    this.options = { ...options };
  }

  /** The number of batches one epoch yields (the last one may be short unless dropLast). */
  get batchesPerEpoch(): number {
    const { count } = this.dataset;
    const { batchSize, dropLast } = this.options;
    return dropLast ? Math.floor(count / batchSize) : Math.ceil(count / batchSize);
  }

  /** The batches of epoch `epoch`; when shuffling, the order is seeded by (seed, epoch). */
  epoch(epoch: number): Generator<Batch> {
    // Not a generator method itself, so a bad argument throws here rather than at first next().
    if (!Number.isSafeInteger(epoch) || epoch < 0) {
      throw new RangeError(`BatchLoader.epoch: epoch must be an integer >= 0, got ${epoch}`);
    }
    return this.batches(epochBatchIndices(this.dataset.count, this.options, epoch));
  }

  private *batches(batchIndices: readonly Uint32Array[]): Generator<Batch> {
    const { images, labels, height, width, channels } = this.dataset;
    const imageBytes = height * width * channels;
    for (const indices of batchIndices) {
      const size = indices.length;
      // A fresh ArrayBuffer of exactly size*imageBytes bytes, so later stages can view it
      // (e.g. as Int32Array words) or transfer it without copying or offset handling.
      const batchImages = new Uint8Array(size * imageBytes);
      const batchLabels = new Int32Array(size);
      for (let k = 0; k < size; k++) {
        const index = indices[k]!;
        batchImages.set(images.subarray(index * imageBytes, (index + 1) * imageBytes), k * imageBytes);
        batchLabels[k] = labels[index]!;
      }
      yield { images: batchImages, labels: batchLabels, shape: [size, height, width, channels], indices };
    }
  }
}
