/**
 * `gpu-transfer-perf/browser`: the public API for perf files that run in a browser page
 * (`gtp perf --browser chromium`, perf/browser/). The same measuring core as `gpu-transfer-perf`
 * (paired sampling, synced timers, byte counters, strategies, metric builders); the session
 * (backend, data, recording) is the page's own (suite/browser-session.ts). Nothing reachable from
 * here imports a host module (.dependency-cruiser.mjs: browser-entry-host-free).
 */

export type { BackendCapabilities, BackendContext, BackendName } from './backend/types.js';
export type { ScaleSizes } from './suite/sizes.js';
export type { PageImageFile, PageVideoFile } from './suite/browser-session.js';
export type { Tensor } from '@tensorflow/tfjs';
export {
  /** The page's backend (webgpu or webgl, --backend), started once per browser launch; what tfjs runs on is read back. */
  useBrowserBackend as useBackend,
  /** The run configuration the command line provided. */
  useBrowserConfig as useConfig,
  /** The MNIST images of this run, read by the Node host. */
  useBrowserMnist as useMnist,
  /** The sample sizes of this run's scale. */
  useBrowserSizes as useSizes,
  /** The run's COCO images (the fixture, or --coco-root/--coco-ann): file bytes to decode in the page and Node's decoded pixels. */
  useBrowserCocoImages as useCocoImages,
  /** The run's Kinetics videos (the fixture, or --kinetics-root): file bytes to decode in the page and ffmpeg's frames. */
  useBrowserKineticsVideos as useKineticsVideos,
  /** Adds metrics to the run record from a test in the page. */
  recordBrowserMetrics as recordMetrics,
  /** The last test of a scenario: no tensor it created is still alive (records memory.leaked-tensors.<scenario>). */
  itLeavesNoTensorsInPage as itLeavesNoTensors,
} from './suite/browser-session.js';
export { BROWSER_BACKENDS, type BrowserBackendName } from './backend/browser-start.js';
export { WebGlTransferCounter } from './backend/webgl.js';
export type { TransferCounter, TransferTotals } from './backend/transfer-counter.js';
export { bytesOfSynced, countSynced, countTransfers } from './backend/synced-transfers.js';
export { sampleInterleaved, samplePairs, type PairedSamples } from './measure/paired.js';
export { CLOCK, timeSynced } from './measure/timer.js';
export { median, maxAbsDiff } from './measure/statistics.js';
export { LeakCheck, memorySnapshot } from './measure/memory.js';
export { bytesMetric, exactMetric, hostProbeMetric, qualityMetric, ratioFromPairs, timeMetric, type MetricInput } from './results/metrics.js';
// What a user's Node perf file also uses (examples/own-pipeline), so that it can import them from
// here: the page's session and these are host-free (.dependency-cruiser.mjs).
export { countAndRead, type Readback } from './suite/readback.js';
export { hostProbe } from './measure/host-probe.js';
export { seededRng, type Rng } from './base/random.js';
export {
  deviceChannelNormalize,
  stagedToDevice,
  type ChannelNormalization,
  type HostPayload,
  type StagedTransfer,
} from './transfer/strategies/staged-transfer.js';
export { MNIST_SPEEDUP_ID } from './results/metric-ids.js';
export { BatchLoader, type Batch } from './data/loader.js';
export { ARTICLE_BATCH } from './suite/sizes.js';
export { ARTICLE_DEVICE_VS_HOST_BOUND } from './suite/article-bounds.js';
export { ARTICLE_NORMALIZATION, IMAGENET_NORMALIZATION, normalizeOnHost } from './transfer/normalization.js';
export {
  CanvasPixels,
  DeviceChannelNormalization,
  decodeInPage,
  IMAGE_STRATEGIES,
  type ImageStrategy,
  imageAgreementBound,
  imagePass,
  imageStrategies,
  importedPixels,
  levelDiff,
  rgbaToRgb,
  expectedImageTransfers,
  imageTransferMetrics,
  type ImageTransfers,
  type PageImageSource,
  sourceSize,
  translucentPixels,
  webglImageTensorBytes,
} from './suite/browser-images.js';
export { closeVideo, frameOf, openVideo, seekFrame, VideoDecodeInPageError } from './suite/browser-video.js';
export { sendSyncedBatches } from './suite/soak.js';
export { cpuNormalize, deviceNormalize, type TransferStrategy } from './transfer/strategies/strategies.js';
export { int32DeviceNormalize, WEBGL_SCALAR_BYTES } from './transfer/strategies/int32-pixels.js';
export { sendWireType, wireCrossing, type WireCrossing } from './transfer/strategies/send-wire.js';
export { WIRE_DTYPES, type WireDtype, wireByteLength } from './transfer/wire-dtypes.js';
export { encodePixels } from './transfer/wire/payload.js';
export { DTYPE_BATCHES, type EncodedBatch, encodeMnistBatches } from './suite/dtype-encode.js';
export { hasPackedKernel } from './transfer/kernels/normalize-packed-kernel.js';
export { measureSweep, SWEEP_SIZES, sweepMetrics } from './suite/sweep.js';
