/**
 * `gpu-transfer-perf/scenarios`: the building blocks of the built-in article scenarios (perf/)
 * and of the questions asked with flags (questions/: --shape, --image-folder): their sizes,
 * networks, training experiment, sweeps and shared specs. Also re-exported by `gpu-transfer-perf`.
 */

export type { DtypeBatch, EncodedBatch } from '../suite/dtype-batches.js';
export type { TrainingResult } from '../train/experiment.js';
export {
  /** The article's DataLoader(batch_size=64, shuffle=True). */
  ARTICLE_BATCH,
} from '../suite/sizes.js';
export {
  /** tinybench options of the *.bench.ts files. */
  BENCH_OPTIONS,
  /** A bench name that carries its bytes per operation (for bytes/s). */
  benchName,
  /** A bench body that stops only after the device finished. */
  syncedBench,
} from '../suite/bench.js';
export {
  /** The dtypes scenario's batch sizes. */
  DTYPE_BATCHES,
  /** Interleaved rounds for the dtypes scenario's large batch, per scale. */
  LARGE_BATCH_ROUNDS,
  /** The dtypes scenario's large batch of seeded pixels, encoded as every wire type. */
  encodedLargeBatch,
  /** The article loader's first full batches, each encoded as every wire type. */
  encodedMnistBatches,
} from '../suite/dtype-batches.js';
export {
  /** Calibration only: a strategy doing a given fraction more real work. */
  withExtraWork,
} from '../suite/extra-work.js';
export {
  /** Sections 3 and 5: tf.profile of the article's train step fed by one strategy, as a kernel table. */
  describeTrainStepKernels,
} from '../suite/kernel-table-spec.js';
export {
  /** COCO batches of this run's scale. */
  cocoLoader,
  /** The COCO summary as exact metrics. */
  cocoSummaryMetrics,
  /** Kinetics batches of this run's scale. */
  kineticsLoader,
  /** The Kinetics summary as exact metrics. */
  kineticsSummaryMetrics,
} from '../suite/media-data.js';
export {
  /** Largest allowed difference between the two strategies on ImageNet-normalized pixels. */
  MEDIA_MAX_DIFF,
  /** Asserts that both strategies give the same model input; returns the largest difference. */
  expectSameInput,
  /** One profiled Adam step of a fresh seeded model fed by one strategy. */
  profiledTrainStep,
} from '../suite/media-spec.js';
export {
  /** The one test of an image or video timed scenario (sections 7 and 8). */
  itTimesMediaPipeline,
} from '../suite/media-transfer.js';
export {
  /** Runs `produce`, counts its host-to-device bytes until the device is done, reads the result back. */
  countAndRead,
  /** Runs the decode kernel on hand-made words and reads the result. */
  decodeWords,
  /** Sends a payload, counting its bytes, and reads the decoded tensor back. */
  sendAndRead,
} from '../suite/readback.js';
export {
  /** The article's two strategies on MNIST-shaped batches, staged. */
  articleStagedStrategies,
} from '../suite/stage-breakdown.js';
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
} from '../suite/sweep.js';
export {
  /** Section 12's stage breakdown at each batch size. */
  measureSweepStages,
} from '../suite/sweep-stages.js';
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
} from '../suite/transfer-spec.js';
export {
  /** The article's segmentation network (section 7). */
  createSegmentationFcn,
  /** Per-pixel softmax cross-entropy for the segmentation network. */
  segmentationLoss,
} from '../models/segmentation-fcn.js';
export {
  /** Whether the running backend can train convolutions. */
  canTrainConvolutions,
} from '../models/train-step.js';
export {
  /** The article's second network (section 10). */
  createTwoConvCnn,
} from '../models/two-conv-cnn.js';
export {
  /** The (2+1)D video classifier (section 8). */
  createVideoClassifier,
  /** Softmax cross-entropy of clip logits. */
  videoLoss,
} from '../models/video-classifier.js';
export {
  /** Section 10's three training runs: the two strategies and a resident reference. */
  TRAINING_ARMS,
  /** Per-step loss differences between two training runs. */
  lossAgreement,
  /** Section 10: the article's network trained three times from the same weights on the same batches. */
  runTrainingExperiment,
} from '../train/experiment.js';
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
} from '../train/metrics.js';
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
} from '../train/sizes.js';
export {
  /** `gtp perf --shape`: both strategies (and wire types) at one [N,H,W,C] shape of seeded pixels: bytes, speedup, stages, limit. */
  measureShape,
  /** A shape as it appears in metric ids: '16x512x512x3'. */
  shapeId,
  /** Batches of seeded uniform random pixels of a shape. */
  syntheticBatches,
} from '../suite/shape-question.js';
export {
  /** `gtp perf --image-folder`: a real folder end to end (one whole pass, then interleaved rounds both ways): counts, bytes, speedups, stages. */
  measureImageFolder,
} from '../suite/image-folder-question.js';
export {
  /** Section 13's load: batches through a strategy, each synced on the device and disposed. */
  sendSyncedBatches,
} from '../suite/soak.js';
