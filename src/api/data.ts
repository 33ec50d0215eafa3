/**
 * `gpu-transfer-perf/data`: where a run's data comes from. The registered data sources (MNIST,
 * COCO, Kinetics), the batch loader, MNIST idx files, a torchvision ImageFolder, seeded random
 * numbers and splits, and the shapes a question is asked in. Also re-exported by `gpu-transfer-perf`.
 */

export type { AnyDatasetSource, DataFlag, DatasetSource, SourceBatches } from '../data/source.js';
export {
  /** Every registered data source: flags, fixture, description, sizes, loading (src/data/sources.ts). */
  DATASET_SOURCES,
} from '../data/sources.js';
export {
  /** MNIST: --mnist-dir's idx files, else the `mnist` package. */
  mnistSource,
} from '../data/mnist/source.js';
export {
  /** COCO: --coco-root and --coco-ann, else the committed fixture. */
  cocoSource,
} from '../data/coco/source.js';
export {
  /** Kinetics: --kinetics-root, else the committed fixture. */
  kineticsSource,
} from '../data/kinetics/source.js';
export type { ImageDataset } from '../data/dataset.js';
export type { Batch, TimedBatch } from '../data/loader.js';
export type { CocoDataset } from '../data/coco/reader.js';
export type { SegmentationTargets } from '../data/coco/collate.js';
export type { KineticsDataset } from '../data/kinetics/reader.js';
export {
  /** Cuts an in-memory image data set into minibatches like torch's DataLoader, reproducibly. */
  BatchLoader,
} from '../data/loader.js';
export {
  /** One MNIST split read from IDX files (plain or .gz) in a folder. */
  loadMnistDir,
} from '../data/mnist-dir.js';
export {
  /** A reproducible random number generator for an integer seed. */
  seededRng,
} from '../base/random.js';
export {
  /** The first `count` images of a seeded shuffle of a data set. */
  sampleOf,
  /** A reproducible train / held-out split with the same class proportions. */
  stratifiedSplit,
} from '../train/split.js';
export type { Question } from '../run-config.js';
export type { ImageFit, ImageFolderSummary, ImageSize, NhwcShape } from '../data/image-folder/index.js';
export {
  /** Reads a torchvision ImageFolder (DIR/<class>/<image>), decoded by sharp, fitted to a size, in batches, with the summary of the pass. */
  loadImageFolder,
  /** Batches of a scanned image folder one at a time (for folders too big to hold), returning the summary of the pass. */
  imageFolderBatches,
  /** Lists an ImageFolder: classes, image files in torchvision's order, what was ignored. */
  scanImageFolder,
  /** '16x512x512x3' as [N, H, W, C], checked. */
  parseShape,
  /** '224x224' as { height, width }, checked. */
  parseSize,
} from '../data/image-folder/index.js';
