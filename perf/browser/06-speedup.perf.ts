// Article section 6 in a browser page: how much faster are raw pixels normalized on the device
// than float32 normalized on the CPU, timed in interleaved pairs synced with the device. A timed
// scenario: it asserts nothing about time; the ratio goes to the run record and its baseline.
import { beforeAll, describe, it } from 'vitest';
import {
  ARTICLE_BATCH,
  BatchLoader,
  CLOCK,
  cpuNormalize,
  deviceNormalize,
  hasPackedKernel,
  int32DeviceNormalize,
  median,
  ratioFromPairs,
  recordMetrics,
  samplePairs,
  timeMetric,
  timeSynced,
  useBackend,
  useMnist,
  useSizes,
  type BackendContext,
  type Batch,
} from 'gpu-transfer-perf/browser';

let context: BackendContext;
let batches: Batch[];

beforeAll(async () => {
  context = await useBackend();
  // Full batches only, so every pair moves the same 64 images' worth of bytes.
  batches = [...new BatchLoader(await useMnist(), { ...ARTICLE_BATCH, dropLast: true }).epoch(0)];
});

describe('speedup of normalizing on the device over the CPU, in the browser (section 6)', () => {
  it('times both strategies in interleaved pairs, synced with the device', async ({ task }) => {
    const sizes = useSizes();
    const host = cpuNormalize(context);
    // webgl has no packed uint8 kernel: its raw pixels go up as int32 (as many bytes as float32).
    const device = hasPackedKernel() ? deviceNormalize() : int32DeviceNormalize(context);
    const batchOf = (round: number) => batches[round % batches.length]!;
    const samples = await samplePairs({
      warmupPairs: sizes.warmupPairs,
      pairs: sizes.pairs,
      runA: (round) => timeSynced(context, () => host.toDevice(batchOf(round))),
      runB: (round) => timeSynced(context, () => device.toDevice(batchOf(round))),
    });
    const what = `one [64,28,28,1] batch from uint8 pixels to a normalized float32 tensor on ${context.name} in the browser (raw pixels at ${device.wireBytesPerPixel()} B each)`;
    await recordMetrics(
      task,
      ratioFromPairs('browser-mnist.speedup', samples, {
        detail: `median over interleaved pairs of time(cpu-normalize)/time(device-normalize), 95% percentile-bootstrap CI; ${what}; ${CLOCK}`,
        labels: { a: 'cpu-normalize', b: 'device-normalize' },
      }),
      timeMetric('browser-mnist.time.cpu-normalize', median(samples.a), samples.a.length, {
        detail: `median; normalize on the host + upload float32; ${what}; ${CLOCK}`,
        labels: { strategy: 'cpu-normalize' },
      }),
      timeMetric('browser-mnist.time.device-normalize', median(samples.b), samples.b.length, {
        detail: `median; upload raw pixels + normalize on the device; ${what}; ${CLOCK}`,
        labels: { strategy: 'device-normalize' },
      }),
    );
  });
});
