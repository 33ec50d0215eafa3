import * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../backend/types.js';
import { estimateSpeedup, samplePairs } from '../measure/paired.js';
import { median } from '../measure/statistics.js';
import { CLOCK, timeSynced } from '../measure/timer.js';
import { ARTICLE_NORMALIZATION } from '../transfer/normalization.js';
import { NORMALIZE_PACKED_BYTES, type NormalizePackedAttrs } from '../transfer/kernels/normalize-packed-kernel.js';
import { cpuNormalize, deviceNormalize, type PixelBatch } from '../transfer/strategies/strategies.js';
import { type DeviceOps, tensorOps, webgpuOps } from '../backend/device-ops.js';
import type { Figure } from './schema.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** How much doctor measures: sizes, repetitions, pairs. */
export interface MeasurementPlan {
  readonly uploadSizes: readonly number[];
  readonly readbackSizes: readonly number[];
  /** Must include 4 * normalizePixels: the kernel is compared with a copy of its output's size. */
  readonly copySizes: readonly number[];
  readonly normalizePixels: number;
  readonly normalizeReps: number;
  readonly speedupWarmupPairs: number;
  readonly speedupPairs: number;
  /** Timed repetitions of one transfer of `size` bytes; more for small, cheap ones. */
  repsFor(size: number): number;
}

/** Default: the whole curve, 64 KiB..256 MiB by 4x (about 10 s on a 2-core lavapipe machine). */
export const DEFAULT_PLAN: MeasurementPlan = {
  uploadSizes: [64 * KiB, 256 * KiB, MiB, 4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB],
  readbackSizes: [64 * KiB, MiB, 16 * MiB, 64 * MiB],
  copySizes: [MiB, 16 * MiB, 64 * MiB],
  // 16 Mi pixels: 16 MiB in, 64 MiB of float32 out (within the 128 MiB storage binding every adapter offers).
  normalizePixels: 16 * MiB,
  normalizeReps: 30,
  speedupWarmupPairs: 20,
  // Twice quick scale's 200 pairs (README: 200 pairs put a 20% slowdown outside the CI in 99.8% of runs); 0.4 s on lavapipe.
  speedupPairs: 400,
  repsFor: (size) => (size <= MiB ? 100 : size <= 16 * MiB ? 40 : size <= 64 * MiB ? 15 : 7),
};

/** --quick: four upload sizes, two readbacks, one copy, fewer repetitions and pairs. */
export const QUICK_PLAN: MeasurementPlan = {
  uploadSizes: [64 * KiB, MiB, 16 * MiB, 64 * MiB],
  readbackSizes: [MiB, 16 * MiB],
  copySizes: [64 * MiB],
  normalizePixels: 16 * MiB,
  normalizeReps: 10,
  speedupWarmupPairs: 10,
  speedupPairs: 100,
  repsFor: (size) => (size <= MiB ? 30 : size <= 16 * MiB ? 10 : 5),
};

/** '64 KiB', '16 MiB'. */
export function sizeLabel(bytes: number): string {
  return bytes >= MiB ? `${bytes / MiB} MiB` : `${bytes / KiB} KiB`;
}

/** 'upload.64kib', 'copy.16mib'. */
export function sizeId(kind: string, bytes: number): string {
  return `${kind}.${sizeLabel(bytes).replace(' ', '').toLowerCase()}`;
}

/** A bandwidth figure from per-repetition times of moving `bytes` (decimal GB/s: 1e9 B/s); `clock` says how each was timed. */
export function bandwidthFigure(id: string, label: string, bytes: number, times: readonly number[], detail: string, clock: string = CLOCK): Figure {
  const rate = (ms: number) => bytes / ms / 1e6;
  return {
    id,
    label,
    value: rate(median(times)),
    unit: 'GB/s',
    n: times.length,
    spread: [rate(Math.max(...times)), rate(Math.min(...times))],
    detail: `${detail}; ${sizeLabel(bytes)} per transfer, median of ${times.length} (after warm-up); ${clock}`,
  };
}

/** Warm-up repetitions: the first transfers of a size allocate and fault in memory. */
export const warmupFor = (size: number) => (size >= 64 * MiB ? 1 : 2);

async function uploadCurve(ops: DeviceOps, plan: MeasurementPlan, say: (line: string) => void): Promise<Figure[]> {
  const largest = Math.max(...plan.uploadSizes);
  // One host array, filled once (not zero: a zero page could be special-cased); smaller sizes are views of it.
  const host = new Uint8Array(largest).fill(0x5a);
  const figures: Figure[] = [];
  for (const size of plan.uploadSizes) {
    const times = await ops.upload(host.subarray(0, size), warmupFor(size), plan.repsFor(size));
    figures.push(bandwidthFigure(sizeId('upload', size), `host->device ${sizeLabel(size)}`, size, times, ops.uploadPath));
    say(`  upload ${sizeLabel(size)}`);
  }
  return figures;
}

async function readbacks(ops: DeviceOps, plan: MeasurementPlan): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const size of plan.readbackSizes) {
    const times = await ops.readback(size, warmupFor(size), plan.repsFor(size));
    figures.push(bandwidthFigure(sizeId('readback', size), `device->host ${sizeLabel(size)}`, size, times, ops.readbackPath));
  }
  return figures;
}

async function copies(ops: DeviceOps, plan: MeasurementPlan): Promise<Figure[]> {
  if (!ops.copyPath) return [];
  const figures: Figure[] = [];
  for (const size of plan.copySizes) {
    const times = await ops.copy(size, warmupFor(size), plan.repsFor(size));
    figures.push(bandwidthFigure(sizeId('copy', size), `device copy ${sizeLabel(size)}`, size, times, ops.copyPath));
  }
  return figures;
}

/**
 * The normalize kernel (NormalizePackedBytes, what device-normalize runs) on packed words
 * already on the device, so no upload is timed: it reads N bytes and writes 4N bytes of
 * float32. Its memory throughput (bytes read + written per second) is set against a
 * copyBufferToBuffer of its output's size (2 x size read + written per second): near 1 means the
 * kernel runs at the device's copy speed, far below means it is compute- or dispatch-bound.
 */
async function normalizeKernel(context: BackendContext, plan: MeasurementPlan, copyFigures: readonly Figure[]): Promise<Figure[]> {
  const pixels = plan.normalizePixels;
  const words = tf.tensor1d(new Int32Array(pixels / 4).fill(0x5a5a5a5a), 'int32');
  context.upload(words);
  await context.sync(words);
  const attrs: NormalizePackedAttrs = { shape: [pixels], wire: 'uint8', mean: ARTICLE_NORMALIZATION.mean, std: ARTICLE_NORMALIZATION.std };
  const run = () => tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed: words }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
  const times: number[] = [];
  try {
    for (let i = 0; i < 2 + plan.normalizeReps; i++) {
      const ms = await timeSynced(context, run);
      if (i >= 2) times.push(ms);
    }
  } finally {
    words.dispose();
  }
  const touched = pixels * 5;
  const kernel = bandwidthFigure(
    'normalize.throughput',
    `normalize kernel ${sizeLabel(pixels)} px`,
    touched,
    times,
    `${NORMALIZE_PACKED_BYTES} on resident packed uint8 words (tfjs runKernel, as device-normalize dispatches it): bytes read + written (${sizeLabel(pixels)} in, ${sizeLabel(pixels * 4)} float32 out)`,
  );
  const figures = [kernel];
  const copy = copyFigures.find((f) => f.id === sizeId('copy', pixels * 4));
  if (copy) {
    // copy.value is bytes copied per second; a copy reads and writes each byte once.
    figures.push({
      id: 'normalize.fraction-of-copy',
      label: 'normalize kernel / device copy throughput',
      value: kernel.value / (2 * copy.value),
      unit: 'fraction',
      n: kernel.n,
      detail: `normalize kernel bytes read + written per second (${kernel.value.toFixed(2)} GB/s) over copyBufferToBuffer's at ${sizeLabel(pixels * 4)} (2 x ${copy.value.toFixed(2)} GB/s); 1 = the kernel moves memory as fast as a copy`,
    });
  }
  return figures;
}

/** Article section 6 in small: one MNIST batch through both strategies, interleaved pairs. */
async function speedupCheck(context: BackendContext, plan: MeasurementPlan): Promise<Figure> {
  const shape = [64, 28, 28, 1] as const;
  const images = new Uint8Array(64 * 28 * 28);
  // Deterministic, every byte value: the kernel's work does not depend on the content.
  for (let i = 0; i < images.length; i++) images[i] = (i * 37) & 0xff;
  const batch: PixelBatch = { images, shape };
  const a = cpuNormalize(context);
  const b = deviceNormalize();
  const samples = await samplePairs({
    warmupPairs: plan.speedupWarmupPairs,
    pairs: plan.speedupPairs,
    runA: () => timeSynced(context, () => a.toDevice(batch)),
    runB: () => timeSynced(context, () => b.toDevice(batch)),
  });
  const s = estimateSpeedup(samples);
  return {
    id: 'speedup.mnist-batch',
    label: 'speedup uint8 path (section 6)',
    value: s.ratio.estimate,
    unit: 'x',
    n: s.pairs,
    ci: [s.ratio.lo, s.ratio.hi],
    detail: `median of ${s.pairs} per-pair ratios time(cpu-normalize) / time(device-normalize), [64,28,28,1] uint8 batch, interleaved pairs (ABBA) after ${plan.speedupWarmupPairs} warm-up pairs, 95% bootstrap CI [${s.ratio.lo.toFixed(2)}, ${s.ratio.hi.toFixed(2)}]; medians ${s.medianMsA.toFixed(3)} / ${s.medianMsB.toFixed(3)} ms; above 1: the uint8 path is faster; ${CLOCK}`,
  };
}

/** The plan without transfers larger than `maxBytes` (a device's maxBufferSize; a wasm heap). */
export function capPlan(plan: MeasurementPlan, maxBytes: number): MeasurementPlan {
  const within = (sizes: readonly number[]) => sizes.filter((s) => s <= maxBytes);
  return { ...plan, uploadSizes: within(plan.uploadSizes), readbackSizes: within(plan.readbackSizes), copySizes: within(plan.copySizes) };
}

// Host backends hold tensors in the JS heap or the wasm heap (4 GiB at most): stay well below.
const HOST_BACKEND_MAX_BYTES = 64 * MiB;

/** The plan as run on this backend: no transfer beyond the device's maxBufferSize, or 64 MiB on a host backend. */
export function planFor(context: BackendContext, fullPlan: MeasurementPlan, maxBufferSize: number | null): MeasurementPlan {
  return capPlan(fullPlan, context.capabilities.hasGpuDevice ? (maxBufferSize ?? Number.POSITIVE_INFINITY) : HOST_BACKEND_MAX_BYTES);
}

/**
 * Every figure of doctor on the running backend, in order; `say` reports progress.
 * `duringUploads` is started before the upload curve and its returned stop function called right
 * after it: doctor reads the PCIe link again there, while the link is busy (an idle link may
 * train down to Gen1, ../shared/facts/hardware-limits.md section 3).
 */
export async function measureFigures(
  context: BackendContext,
  fullPlan: MeasurementPlan,
  maxBufferSize: number | null,
  say: (line: string) => void = () => {},
  duringUploads: () => () => void = () => () => {},
): Promise<Figure[]> {
  const onDevice = context.capabilities.hasGpuDevice;
  const plan = planFor(context, fullPlan, maxBufferSize);
  const ops = onDevice ? await webgpuOps(context) : tensorOps(context);
  const stopWatching = duringUploads();
  let uploadFigures: Figure[];
  try {
    uploadFigures = await uploadCurve(ops, plan, say);
  } finally {
    stopWatching();
  }
  say('  readback');
  const readbackFigures = await readbacks(ops, plan);
  say('  copy');
  const copyFigures = await copies(ops, plan);
  say('  normalize kernel');
  const kernelFigures = await normalizeKernel(context, plan, copyFigures);
  say('  speedup pairs');
  const speedup = await speedupCheck(context, plan);
  return [...uploadFigures, ...readbackFigures, ...copyFigures, ...kernelFigures, speedup];
}
