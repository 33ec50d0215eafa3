// Article section 6 in a browser page: how much faster are raw pixels normalized on the device
// than float32 normalized on the CPU, timed in interleaved pairs synced with the device. A timed
// scenario: it asserts nothing about time; the ratio goes to the run record and its baseline.
import { beforeAll, describe, expect, it } from 'vitest';
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

/** The smallest step of performance.now() seen over `reads` reads in a row (ms): the clock's resolution, jitter included. */
function clockTick(reads = 20_000): number {
  let tick = Number.POSITIVE_INFINITY;
  let last = performance.now();
  for (let i = 0; i < reads; i++) {
    const now = performance.now();
    if (now > last) tick = Math.min(tick, now - last);
    last = now;
  }
  return tick;
}

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

  it('runs in a cross-origin isolated page, whose clock resolves microseconds (not 100 µs) for millisecond transfers', async ({ task }) => {
    // The page's server sends COOP/COEP (src/runner/run-scenarios.ts); without them Chromium
    // coarsens performance.now() to 100 µs with jitter (W3C High Resolution Time, clock resolution).
    expect(globalThis.crossOriginIsolated, 'the page is not cross-origin isolated: its clock is coarsened to 100 µs').toBe(true);
    await recordMetrics(
      task,
      timeMetric('browser-clock.tick', clockTick(), 1, {
        detail:
          'the smallest step of performance.now() over 20,000 reads in a row in the page: the resolution of every time above (Chromium: 0.005 ms when cross-origin isolated, 0.1 ms otherwise); smaller is finer',
      }),
    );
  });
});
