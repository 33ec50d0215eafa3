/** The image-folder data source (`gtp perf --image-folder DIR --size HxW`): its public pieces. */
export { parseShape, parseSize, ShapeParseError, MAX_BATCH_BYTES, MAX_IMAGE_SIDE, type ImageSize, type NhwcShape } from '../shape.js';
export { fitCollate, type FitOptions } from './collate.js';
export { ImageFolderError } from './errors.js';
export { decodeImage, type DecodeSkip, type DecodeSkipReason } from './decode.js';
export { drawFitted, placement, type ImageFit, type Placement } from './fit.js';
export { IMAGE_RESAMPLES, PIL_MAX_IMAGE_PIXELS, type ImageResample } from './options.js';
export { IMG_EXTENSIONS, scanImageFolder, type FolderSkipReason, type IgnoredEntries, type ImageFile, type ImageFolderLayout } from './layout.js';
export { compareNames, displayName } from './names.js';
export { resizePilBilinear } from './pil-resize.js';
export {
  IMAGE_FOLDER_SKIP_REASONS,
  imageFolderBatches,
  loadImageFolder,
  type ImageFolder,
  type ImageFolderBatchOptions,
  type ImageFolderOptions,
  type ImageFolderSkipReason,
  type ImageFolderSummary,
} from './reader.js';
