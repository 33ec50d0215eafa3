/**
 * `gpu-transfer-perf`: the public API for perf files, the harness's own (perf/) and a user's.
 * Everything exported here is covered by semver together with the run-record schema; anything
 * else under src/ is internal and may change in any release. The `gpu-transfer-perf/vitest`
 * entry (src/vitest.ts) holds the vitest preset.
 *
 * Sections: session (what a run provides), measuring, transfer strategies, results and
 * recording, data, and the building blocks of the built-in article scenarios.
 */

// --- Session: what one run provides to every perf file of its one test process ---------------

export type {
  /** What the running backend can do (a GPU device, GPU timestamps, reusable host arrays): branch on it, not on the name. */
  BackendCapabilities,
  BackendContext,
  BackendName,
} from './backend/types.js';
export type { RunConfig, Scale } from './run-config.js';
export type { MediaSizes, ScaleSizes } from './suite/sizes.js';
export {
  /** The backend of this run (webgpu, wasm, cpu, tensorflow), started once per process. */
  useBackend,
  /** The run configuration the command line provided (scale, backend, data sources, selection). */
  useConfig,
  /** The image and video sizes of this run's scale. */
  useMediaSizes,
  /** The MNIST images of this run: --mnist-dir's idx files, else the `mnist` package. */
  useMnist,
  /** The sample sizes (pairs, warm-up pairs, ...) of this run's scale. */
  useSizes,
  /** A data source's data of this run, read once per process. */
  useDataset,
  /** What the user named for a data source with its flags (null: its default). */
  useGivenData,
  /** A data source's sizes at this run's scale. */
  useSourceSizes,
} from './suite/session.js';
export type { AnyDatasetSource, DataFlag, DatasetSource, SourceBatches } from './data/source.js';
export {
  /** Every registered data source: flags, fixture, description, sizes, loading (src/data/sources.ts). */
  DATASET_SOURCES,
} from './data/sources.js';
export {
  /** MNIST: --mnist-dir's idx files, else the `mnist` package. */
  mnistSource,
} from './data/mnist/source.js';
export {
  /** COCO: --coco-root and --coco-ann, else the committed fixture. */
  cocoSource,
} from './data/coco/source.js';
export {
  /** Kinetics: --kinetics-root, else the committed fixture. */
  kineticsSource,
} from './data/kinetics/source.js';

// --- Measuring --------------------------------------------------------------------------------

export type { TransferCounter, TransferTotals } from './backend/transfer-counter.js';
export type { Measured, PairedOptions, PairedSamples, SampledVariant } from './measure/paired.js';
export type { CountSource } from './backend/synced-transfers.js';
export type { StageInput, StageOptions } from './suite/stage-breakdown.js';
export {
  /** The host-to-device bytes of producing one tensor, counted until the device finished it; disposes the tensor. */
  bytesOfSynced,
  /** The same count, returning the tensor too (the caller disposes it). */
  countSynced,
  /** Runs `fn` and returns its result with the host-to-device bytes it caused; given the context, its tensors are made resident on the device first. */
  countTransfers,
  /** A measured call whose output, made from a host array during the call, crossed 0 B: the message says what to do. */
  DeviceSkippedError,
} from './backend/synced-transfers.js';
export {
  /** A fixed host loop timed before each pair (samplePairs' `probe`): the host's state, the covariate of a ratio's verdicts. */
  hostProbe,
} from './measure/host-probe.js';
export type { GpuClocks } from './measure/gpu-clocks.js';
export {
  /** The GPU's clocks now (nvidia-smi, amdgpu or i915 sysfs), or why they are unavailable: read before and after a scenario's pairs. */
  readGpuClocks,
} from './measure/gpu-clocks.js';
export {
  /** The clocks read before and after a scenario's pairs as information figures (MHz) beside its host-state probe. */
  gpuClockMetrics,
} from './results/gpu-clock-metrics.js';
export {
  /** Interleaved rounds of any number of variants, rotating which goes first; one timing array per variant. */
  sampleInterleaved,
  /** Interleaved A/B pairs (ABBA...) after warm-up pairs: the input of a ratio metric. */
  samplePairs,
  /** A probe (hostProbe) timed before each measured round of sampleInterleaved: its `beforeRound` and the timings. */
  probeEachRound,
} from './measure/paired.js';
export {
  /** P(X <= k) for X ~ Binomial(n, p), exact. */
  binomialCdf,
  /** The fewest successes out of n that a one-sided exact binomial test at `alpha` accepts for a rate >= p. */
  binomialLowerThreshold,
  /** Largest |a[i] - b[i]| over two equally long arrays. */
  maxAbsDiff,
  /** Median of unsorted samples. */
  median,
} from './measure/statistics.js';
export {
  /** float32's unit roundoff u = 2^-24. */
  FLOAT32_UNIT_ROUNDOFF,
  /** The most roundings on one term's path of a normalization (x - mean) / std on a WebGPU device (8). */
  NORMALIZE_ROUNDINGS,
  /** The host's normalization: float64 rounded once to float32 (1 rounding). */
  HOST_ROUNDINGS,
  /** gamma_n = n u / (1 - n u) (Higham §3.1, Lemma 3.1). */
  gamma,
  /** Largest difference of two float32 normalizations of the same pixels, derived from their operations. */
  normalizeAgreementBound,
  /** Largest relative difference of two float32 evaluations of one loss over `roundings` on its longest path. */
  lossAgreementBound,
  /** Roundings on the longest path of the two-conv network's loss at a batch size. */
  twoConvLossRoundings,
  /** Roundings on the longest path of one gradient of the two-conv network at a batch size. */
  twoConvGradientRoundings,
  /** Largest |weight difference| of two Adam trainings whose gradients agree to a relative error, after some steps. */
  adamDriftBound,
  /** Higham & Mary's probabilistic gamma: lambda sqrt(n) u to first order. */
  probabilisticGamma,
} from './measure/float-bounds.js';
export {
  /** The clock every timing reads, in words, for a metric's detail. */
  CLOCK,
  /** Milliseconds until `work`'s output exists on the device (uploaded, then the device synced); disposes the output. */
  timeSynced,
} from './measure/timer.js';
export {
  /** Per-strategy host, upload and compute stage medians, sync floor, device limit and kernel throughput, as metrics. */
  measureStages,
} from './suite/stage-breakdown.js';
export {
  /** Tracks tensors alive since construction: what a scenario left behind. */
  LeakCheck,
  /** tfjs's memory accounting now (tensors, bytes, device bytes where known). */
  memorySnapshot,
} from './measure/memory.js';
export {
  /** tfjs's and the harness's device memory accounting (webgpu). */
  deviceMemory,
  /** Device bytes held in all, buffer pool included, or null off webgpu. */
  heldDeviceBytes,
  /** Destroys the free buffers of tfjs's webgpu buffer pool (its missing `empty_cache`). */
  releaseBufferPool,
} from './measure/device-memory.js';

// --- Transfer strategies: raw pixels to a normalized float32 tensor on the device -------------

export type { PixelBatch, TransferStrategy } from './transfer/strategies/strategies.js';
export type { ChannelNormalization, HostPayload, StagedTransfer } from './transfer/strategies/staged-transfer.js';
export type { AnyNormalization, Normalization } from './transfer/normalization.js';
export type { RawBatch } from './transfer/strategies/alternatives.js';
export type { CropMirrorNormalizeSpec } from './transfer/kernels/crop-mirror-normalize.js';
export type { WireDtype } from './transfer/wire-dtypes.js';
export {
  /** cpu-normalize: normalize on the host, send float32 (4 bytes per pixel). */
  cpuNormalize,
  /** device-normalize: send raw bytes as packed words (1 byte per pixel), normalize on the device. */
  deviceNormalize,
} from './transfer/strategies/strategies.js';
export {
  /** device-normalize for [N,H,W,C] images and clips, staged: bytes + the fused per-channel normalize kernel. */
  deviceChannelNormalize,
  /** device-normalize for MNIST-shaped batches, staged: bytes + the packed-bytes normalize kernel. */
  devicePackedNormalize,
  /** cpu-normalize for [N,H,W,C] images and clips, staged: per-channel normalize on the host, send float32. */
  hostChannelNormalize,
  /** A staged transfer whose payload crosses as packed 32-bit words, decoded on the device by `decode`. */
  packedBytesTransfer,
  /** Segmentation masks (uint8 class indices) sent as bytes, decoded on the device to int32. */
  sendMasks,
  /** All three stages of a staged transfer, unsynced in between, as a real pipeline runs them. */
  stagedToDevice,
  /** Section 11, staged: pixels encoded on the host as a wire type, decoded on the device. */
  wireDtypeTransfer,
} from './transfer/strategies/staged-transfer.js';
export {
  /** The article's (x - 127.5) / 127.5, mapping bytes onto [-1, 1]. */
  ARTICLE_NORMALIZATION,
  /** Normalizes raw pixels on the host into float32 (float64 arithmetic, rounded once). */
  normalizeOnHost,
  /** Normalizes channels-last raw pixels on the host, one mean/std per channel (float64, rounded once). */
  normalizeChannelsOnHost,
} from './transfer/normalization.js';
export {
  /** The naive tfjs port: bytes as an int32 tensor (4 bytes per pixel), normalized by two kernels. */
  naiveTfjsNormalize,
  /** The naive port cut into stages for measureStages. */
  naiveTfjsStaged,
  /** A tf.data pipeline over a batch's images, normalized per image and batched. */
  tfDataNormalize,
} from './transfer/strategies/alternatives.js';
export {
  /** ImageNet's per-channel mean and std on the 0..255 scale. */
  IMAGENET_NORMALIZATION,
  /** CPU reference of crop, mirror and per-channel normalize (float64, rounded once). */
  cropMirrorNormalizeOnHost,
  /** Validates a crop-mirror-normalize spec and works out its output shape; RangeError on bad input. */
  resolveCropMirrorNormalize,
} from './transfer/kernels/crop-mirror-normalize.js';
export {
  /** The fused crop-mirror-normalize kernel's tfjs name. */
  CROP_MIRROR_NORMALIZE,
  /** Sends raw pixels and returns the cropped, mirrored, normalized float32 input in one fused kernel. */
  cropMirrorNormalize,
  /** The same result from separate kernels (the unfused reference). */
  cropMirrorNormalizeComposed,
} from './transfer/kernels/crop-mirror-normalize-kernel.js';
export {
  /** The wire types of section 11: uint8, int8, float16, float32. */
  WIRE_DTYPES,
  /** Bytes `count` elements of a wire type occupy on the wire (packed types pad to whole words). */
  wireByteLength,
} from './transfer/wire-dtypes.js';
export {
  /** Pixels centred on zero as int8 (x - 128). */
  centerPixels,
  /** Encodes raw pixels as one wire type so that every type decodes to the same model input (one mean/std, or per channel). */
  encodePixels,
  /** Host reference of the device decode of a wire type (float64, rounded once; per channel too). */
  decodeOnHost,
} from './transfer/wire/payload.js';
export {
  /** Sends a payload at its wire size and returns the float32 tensor decoded from it on the device. */
  sendPayload,
} from './transfer/strategies/send-payload.js';
export {
  /** Views a typed array's bytes as 32-bit words (copying only when misaligned). */
  packBytes,
} from './transfer/wire/packed-bytes.js';
export {
  /** Smallest positive normal float16 value. */
  FLOAT16_MIN_NORMAL,
  /** The exact float32 value of float16 bits. */
  float16BitsToFloat32,
  /** The most float16 rounding can move a value. */
  float16RoundingBound,
  /** Decodes float16 bits into float32 values. */
  fromFloat16Array,
} from './transfer/wire/float16.js';

// --- Results and recording: metrics into the run record ---------------------------------------

export type { Labels, MetricInput } from './results/metrics.js';
export {
  /** Exact bytes (measured at an API boundary or computed): must equal the baseline. */
  bytesMetric,
  /** An exact count (bytes, tensors, shapes): must equal the baseline. */
  exactMetric,
  /** A figure that must lie within a bound (accuracy, max abs difference). */
  qualityMetric,
  /** A ratio from interleaved pairs: median time(a)/time(b) with its 95% bootstrap CI, samples kept. */
  ratioFromPairs,
  /** The host-state probe's median beside a ratio: its covariate, information, never judged. */
  hostProbeMetric,
  /** The id of that metric, for ratios sampled in the same rounds to name in labels.covariate. */
  hostProbeId,
  /** A median time in ms over n samples (informational; compared only within a profile). */
  timeMetric,
} from './results/metrics.js';
export {
  /** Section 6's claim's metric id, 'mnist-transfer.speedup' (read by the report and calibration). */
  MNIST_SPEEDUP_ID,
} from './results/metric-ids.js';
export {
  /** Adds a profiled step's top-N kernel table to the run record. */
  recordKernelTable,
  /** Adds metrics to the run record from inside a test; the scenario is the perf file's name. */
  recordMetrics,
} from './suite/record.js';
export {
  /** The last test of a scenario: no tensor it created is still alive (records memory.leaked-tensors.<scenario>). */
  itLeavesNoTensors,
} from './suite/leak-spec.js';
export {
  /** A console progress bar for long scenarios. */
  Progress,
} from './measure/progress.js';

// --- Data -------------------------------------------------------------------------------------

export type { ImageDataset } from './data/dataset.js';
export type { Batch, TimedBatch } from './data/loader.js';
export type { CocoDataset } from './data/coco/reader.js';
export type { SegmentationTargets } from './data/coco/collate.js';
export type { KineticsDataset } from './data/kinetics/reader.js';
export {
  /** Cuts an in-memory image data set into minibatches like torch's DataLoader, reproducibly. */
  BatchLoader,
} from './data/loader.js';
export {
  /** One MNIST split read from IDX files (plain or .gz) in a folder. */
  loadMnistDir,
} from './data/mnist-dir.js';
export {
  /** A reproducible random number generator for an integer seed. */
  seededRng,
} from './base/random.js';
export {
  /** The first `count` images of a seeded shuffle of a data set. */
  sampleOf,
  /** A reproducible train / held-out split with the same class proportions. */
  stratifiedSplit,
} from './train/split.js';

// --- Building blocks of the built-in article scenarios (perf/) --------------------------------

export type { DtypeBatch, EncodedBatch } from './suite/dtype-batches.js';
export type { TrainingResult } from './train/experiment.js';
export {
  /** The article's DataLoader(batch_size=64, shuffle=True). */
  ARTICLE_BATCH,
} from './suite/sizes.js';
export {
  /** tinybench options of the *.bench.ts files. */
  BENCH_OPTIONS,
  /** A bench name that carries its bytes per operation (for bytes/s). */
  benchName,
  /** A bench body that stops only after the device finished. */
  syncedBench,
} from './suite/bench.js';
export {
  /** The dtypes scenario's batch sizes. */
  DTYPE_BATCHES,
  /** Interleaved rounds for the dtypes scenario's large batch, per scale. */
  LARGE_BATCH_ROUNDS,
  /** The dtypes scenario's large batch of seeded pixels, encoded as every wire type. */
  encodedLargeBatch,
  /** The article loader's first full batches, each encoded as every wire type. */
  encodedMnistBatches,
} from './suite/dtype-batches.js';
export {
  /** Calibration only: a strategy doing a given fraction more real work. */
  withExtraWork,
} from './suite/extra-work.js';
export {
  /** Sections 3 and 5: tf.profile of the article's train step fed by one strategy, as a kernel table. */
  describeTrainStepKernels,
} from './suite/kernel-table-spec.js';
export {
  /** COCO batches of this run's scale. */
  cocoLoader,
  /** The COCO summary as exact metrics. */
  cocoSummaryMetrics,
  /** Kinetics batches of this run's scale. */
  kineticsLoader,
  /** The Kinetics summary as exact metrics. */
  kineticsSummaryMetrics,
} from './suite/media-data.js';
export {
  /** Largest allowed difference between the two strategies on ImageNet-normalized pixels. */
  MEDIA_MAX_DIFF,
  /** Asserts that both strategies give the same model input; returns the largest difference. */
  expectSameInput,
  /** One profiled Adam step of a fresh seeded model fed by one strategy. */
  profiledTrainStep,
} from './suite/media-spec.js';
export {
  /** The one test of an image or video timed scenario (sections 7 and 8). */
  itTimesMediaPipeline,
} from './suite/media-transfer.js';
export {
  /** Runs `produce`, counts its host-to-device bytes until the device is done, reads the result back. */
  countAndRead,
  /** Runs the decode kernel on hand-made words and reads the result. */
  decodeWords,
  /** Sends a payload, counting its bytes, and reads the decoded tensor back. */
  sendAndRead,
} from './suite/readback.js';
export {
  /** The article's two strategies on MNIST-shaped batches, staged. */
  articleStagedStrategies,
} from './suite/stage-breakdown.js';
export {
  /** Section 12's batch sizes, 32..512. */
  SWEEP_BATCHES,
  /** Section 12's sample sizes per scale. */
  SWEEP_SIZES,
  /** Section 12: both strategies in interleaved pairs at each batch size. */
  measureSweep,
  /** The first full batches of a size from the article's shuffled loader. */
  sweepBatches,
  /** Section 12's figures as metrics. */
  sweepMetrics,
} from './suite/sweep.js';
export {
  /** Section 12's stage breakdown at each batch size. */
  measureSweepStages,
} from './suite/sweep-stages.js';
export {
  /** How far a device normalization of the article may lie from the host's: 1.6e-6, from float32 rounding. */
  ARTICLE_DEVICE_VS_HOST_BOUND,
  /** The checks every transfer strategy must pass: bytes that cross, values, odd sizes, no leaks. */
  describeStrategyTransfer,
  /** The first batch of the article's loader. */
  firstArticleBatch,
  /** The built-in strategy of an id on the running backend. */
  strategyFor,
  /** Moves a batch with a strategy and reads the result back. */
  transferAndRead,
} from './suite/transfer-spec.js';
export {
  /** The article's segmentation network (section 7). */
  createSegmentationFcn,
  /** Per-pixel softmax cross-entropy for the segmentation network. */
  segmentationLoss,
} from './models/segmentation-fcn.js';
export {
  /** Whether the running backend can train convolutions. */
  canTrainConvolutions,
} from './models/train-step.js';
export {
  /** The article's second network (section 10). */
  createTwoConvCnn,
} from './models/two-conv-cnn.js';
export {
  /** The (2+1)D video classifier (section 8). */
  createVideoClassifier,
  /** Softmax cross-entropy of clip logits. */
  videoLoss,
} from './models/video-classifier.js';
export {
  /** Section 10's three training runs: the two strategies and a resident reference. */
  TRAINING_ARMS,
  /** Per-step loss differences between two training runs. */
  lossAgreement,
  /** Section 10: the article's network trained three times from the same weights on the same batches. */
  runTrainingExperiment,
} from './train/experiment.js';
export {
  /** The training curve as metrics. */
  curveMetrics,
  /** Device memory flat across epochs, as a bound. */
  flatMemoryMetrics,
  /** The input-bound fraction and per-step ratios against the resident run. */
  inputBoundMetrics,
  /** Per-epoch loss, accuracy, time and memory as metrics. */
  perEpochMetrics,
  /** Where a training step's time goes, as metrics. */
  trainingStageMetrics,
} from './train/metrics.js';
export {
  /** Section 10's held-out image count. */
  HELD_OUT,
  /** Section 10's shuffle seed. */
  SHUFFLE_SEED,
  /** Section 10's split seed. */
  SPLIT_SEED,
  /** Section 10's sizes per scale. */
  TRAINING_SIZES,
  /** Section 10's batch size. */
  TRAIN_BATCH,
} from './train/sizes.js';

// --- Questions asked with flags (questions/): your shapes and your image folder ---------------

export type { Question } from './run-config.js';
export type { ImageFit, ImageFolderSummary, ImageSize, NhwcShape } from './data/image-folder/index.js';
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
} from './data/image-folder/index.js';
export {
  /** `gtp perf --shape`: both strategies (and wire types) at one [N,H,W,C] shape of seeded pixels: bytes, speedup, stages, limit. */
  measureShape,
  /** A shape as it appears in metric ids: '16x512x512x3'. */
  shapeId,
  /** Batches of seeded uniform random pixels of a shape. */
  syntheticBatches,
} from './suite/shape-question.js';
export {
  /** `gtp perf --image-folder`: a real folder end to end (one whole pass, then interleaved rounds both ways): counts, bytes, speedups, stages. */
  measureImageFolder,
} from './suite/image-folder-question.js';
