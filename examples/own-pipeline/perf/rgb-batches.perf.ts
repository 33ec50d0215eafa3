// This project's question: its camera frames arrive as [8, 96, 96, 3] uint8 RGB batches and its
// model wants them normalized per channel as float32. Normalize on the host and send float32
// (what the project does today), or send the bytes and normalize on the device? Written only
// against gpu-transfer-perf's public API: the figures go to the run record (results/) and are
// judged against this project's own baseline (baselines/<profile>.json) by `gtp perf` and
// `gtp compare`. Exact figures (bytes, leaked tensors) gate; the speedup is judged by its CI.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type BackendContext,
  bytesMetric,
  CLOCK,
  countAndRead,
  deviceChannelNormalize,
  exactMetric,
  itLeavesNoTensors,
  LeakCheck,
  maxAbsDiff,
  median,
  qualityMetric,
  ratioFromPairs,
  recordMetrics,
  samplePairs,
  hostProbe,
  hostProbeMetric,
  seededRng,
  type StagedTransfer,
  stagedToDevice,
  timeMetric,
  timeSynced,
  useBackend,
  useConfig,
} from 'gpu-transfer-perf';

const SHAPE = [8, 96, 96, 3] as const;
const ELEMENTS = SHAPE.reduce((a, b) => a * b, 1);
/** This project's normalization on the 0..255 scale (its training set's channel statistics). */
const NORM = { mean: [123.7, 116.3, 103.5], std: [58.4, 57.1, 57.4] };
/** Distinct batches the pairs cycle through: each pair sends one batch both ways, the next pair the next one. */
const BATCHES = 4;
/** Pairs per scale: quick stays around a second on a software device (CI); full narrows the CI. */
const PAIRS = { quick: { warmupPairs: 5, pairs: 40 }, full: { warmupPairs: 20, pairs: 400 } } as const;
const WHAT = `one [${SHAPE.join(',')}] uint8 RGB batch to a per-channel normalized float32 tensor on the device`;

/** Strategy A, the project's current code: normalize on the host, send float32 (4 bytes per value). */
function hostFloat32(context: BackendContext): StagedTransfer {
  return {
    id: 'host-float32',
    wireBytesPerElement: 4,
    prepare(pixels) {
      const out = new Float32Array(pixels.length);
      for (let i = 0; i < pixels.length; i++) {
        const c = i % 3;
        out[i] = (pixels[i]! - NORM.mean[c]!) / NORM.std[c]!;
      }
      return out;
    },
    upload(payload, shape) {
      const t = tf.tensor(payload as Float32Array, [...shape], 'float32');
      // webgpu uploads lazily, on first use: move the values now, inside the upload stage.
      context.upload(t);
      return t;
    },
    compute: (resident) => resident,
  };
}

/** Strategy B, the candidate: the raw bytes (1 per value) and the harness's fused per-channel normalize kernel. */
function deviceUint8(context: BackendContext): StagedTransfer {
  return { ...deviceChannelNormalize(context, NORM), id: 'device-uint8' };
}

let context: BackendContext;
let batches: Uint8Array[];
let a: StagedTransfer;
let b: StagedTransfer;
let leaks: LeakCheck;

beforeAll(async () => {
  context = await useBackend();
  // Seeded pixels: transfer cost does not depend on content, and every run sends the same bytes.
  const rng = seededRng(7);
  batches = Array.from({ length: BATCHES }, () => Uint8Array.from({ length: ELEMENTS }, () => rng.int(256)));
  a = hostFloat32(context);
  b = deviceUint8(context);
  leaks = new LeakCheck();
});

describe('rgb batches: host-float32 vs device-uint8', () => {
  it('gives the same model input while sending a quarter of the bytes', async ({ task }) => {
    const host = await countAndRead(context, () => stagedToDevice(a, batches[0]!, SHAPE));
    const device = await countAndRead(context, () => stagedToDevice(b, batches[0]!, SHAPE));
    expect(device.shape).toEqual([...SHAPE]);
    expect(host.bytes.dataBytes).toBe(4 * device.bytes.dataBytes);
    const diff = maxAbsDiff(host.values, device.values);
    expect(diff).toBeLessThanOrEqual(1e-5);
    const boundary = context.transfers.boundary;
    await recordMetrics(
      task,
      bytesMetric('rgb-batches.wire-bytes.host-float32', host.bytes.dataBytes, 'measured', {
        detail: `host-to-device data bytes of ${WHAT}, at ${boundary}`,
        labels: { strategy: 'host-float32' },
      }),
      bytesMetric('rgb-batches.wire-bytes.device-uint8', device.bytes.dataBytes, 'measured', {
        detail: `host-to-device data bytes of ${WHAT}, at ${boundary}`,
        labels: { strategy: 'device-uint8' },
      }),
      exactMetric('rgb-batches.wire-bytes.ratio', host.bytes.dataBytes / device.bytes.dataBytes, 'x', 'computed', {
        detail: 'wire bytes of host-float32 over those of device-uint8',
      }),
      qualityMetric('rgb-batches.max-abs-diff', diff, { max: 1e-5 }, { detail: 'largest |host-float32 - device-uint8| over the batch, read back' }),
    );
  });

  it('times both strategies in interleaved pairs, synced with the device', async ({ task }) => {
    const batchOf = (round: number) => batches[round % BATCHES]!;
    const samples = await samplePairs({
      ...PAIRS[useConfig().scale],
      runA: (round) => timeSynced(context, () => stagedToDevice(a, batchOf(round), SHAPE)),
      runB: (round) => timeSynced(context, () => stagedToDevice(b, batchOf(round), SHAPE)),
      // The host's state before each pair: gtp ab judges the ratio adjusted for it (docs/baselines.md).
      probe: hostProbe(),
    });
    await recordMetrics(
      task,
      ratioFromPairs('rgb-batches.speedup', samples, {
        detail: `median over interleaved pairs of time(host-float32)/time(device-uint8), 95% bootstrap CI; ${WHAT}; ${CLOCK}`,
        labels: { a: 'host-float32', b: 'device-uint8' },
      }),
      hostProbeMetric('rgb-batches.speedup', samples.probe ?? []),
      timeMetric('rgb-batches.time.host-float32', median(samples.a), samples.a.length, {
        detail: `median; ${WHAT}; ${CLOCK}`,
        labels: { strategy: 'host-float32' },
      }),
      timeMetric('rgb-batches.time.device-uint8', median(samples.b), samples.b.length, {
        detail: `median; ${WHAT}; ${CLOCK}`,
        labels: { strategy: 'device-uint8' },
      }),
    );
  });

  itLeavesNoTensors(() => leaks);
});
