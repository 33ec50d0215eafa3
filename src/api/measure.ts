/**
 * `gpu-transfer-perf/measure`: what a perf file measures with. The session (what one run
 * provides to every perf file of its test process: the backend, the configuration, the sizes of
 * its scale) and the measuring tools: interleaved pairs, synced timers, byte counters, stage
 * breakdowns, statistics, float bounds, memory. Also re-exported by `gpu-transfer-perf`.
 */

export type {
  /** What the running backend can do (a GPU device, GPU timestamps, reusable host arrays): branch on it, not on the name. */
  BackendCapabilities,
  BackendContext,
  BackendName,
} from '../backend/types.js';
export type { RunConfig, Scale } from '../run-config.js';
export type { MediaSizes, ScaleSizes } from '../suite/sizes.js';
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
} from '../suite/session.js';
export type { TransferCounter, TransferTotals } from '../backend/transfer-counter.js';
export type { Measured, PairedOptions, PairedSamples, SampledVariant } from '../measure/paired.js';
export type { CountSource } from '../backend/synced-transfers.js';
export type { StageInput, StageOptions } from '../suite/stage-breakdown.js';
export {
  /** The host-to-device bytes of producing one tensor, counted until the device finished it; disposes the tensor. */
  bytesOfSynced,
  /** The same count, returning the tensor too (the caller disposes it). */
  countSynced,
  /** Runs `fn` and returns its result with the host-to-device bytes it caused; given the context, its tensors are made resident on the device first. */
  countTransfers,
  /** A measured call whose output, made from a host array during the call, crossed 0 B: the message says what to do. */
  DeviceSkippedError,
} from '../backend/synced-transfers.js';
export {
  /** A fixed host loop timed before each pair (samplePairs' `probe`): the host's state, the covariate of a ratio's verdicts. */
  hostProbe,
} from '../measure/host-probe.js';
export type { GpuClocks } from '../measure/gpu-clocks.js';
export {
  /** The GPU's clocks now (nvidia-smi, amdgpu or i915 sysfs), or why they are unavailable: read before and after a scenario's pairs. */
  readGpuClocks,
} from '../measure/gpu-clocks.js';
export {
  /** The clocks read before and after a scenario's pairs as information figures (MHz) beside its host-state probe. */
  gpuClockMetrics,
} from '../results/gpu-clock-metrics.js';
export {
  /** Interleaved rounds of any number of variants, rotating which goes first; one timing array per variant. */
  sampleInterleaved,
  /** Interleaved A/B pairs (ABBA...) after warm-up pairs: the input of a ratio metric. */
  samplePairs,
  /** A probe (hostProbe) timed before each measured round of sampleInterleaved: its `beforeRound` and the timings. */
  probeEachRound,
} from '../measure/paired.js';
export {
  /** P(X <= k) for X ~ Binomial(n, p), exact. */
  binomialCdf,
  /** The fewest successes out of n that a one-sided exact binomial test at `alpha` accepts for a rate >= p. */
  binomialLowerThreshold,
  /** Largest |a[i] - b[i]| over two equally long arrays. */
  maxAbsDiff,
  /** Median of unsorted samples. */
  median,
} from '../measure/statistics.js';
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
} from '../measure/float-bounds.js';
export {
  /** The clock every timing reads, in words, for a metric's detail. */
  CLOCK,
  /** Milliseconds until `work`'s output exists on the device (uploaded, then the device synced); disposes the output. */
  timeSynced,
} from '../measure/timer.js';
export {
  /** Per-strategy host, upload and compute stage medians, sync floor, device limit and kernel throughput, as metrics. */
  measureStages,
} from '../suite/stage-breakdown.js';
export {
  /** Tracks tensors alive since construction: what a scenario left behind. */
  LeakCheck,
  /** tfjs's memory accounting now (tensors, bytes, device bytes where known). */
  memorySnapshot,
} from '../measure/memory.js';
export {
  /** tfjs's and the harness's device memory accounting (webgpu). */
  deviceMemory,
  /** Device bytes held in all, buffer pool included, or null off webgpu. */
  heldDeviceBytes,
  /** Destroys the free buffers of tfjs's webgpu buffer pool (its missing `empty_cache`). */
  releaseBufferPool,
} from '../measure/device-memory.js';
