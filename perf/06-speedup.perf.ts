// Article section 6: how much faster is sending uint8 and normalizing on the device?
// A timed scenario, not a timed test: it asserts nothing about time; the figures go to the run
// record and are judged against baselines. It uses the harness's paired sampler, not vitest's
// bench() (tinybench), because tinybench runs tasks one after another: it cannot interleave A/B
// pairs on the same batch, so drift and background load would land on one side. The latency
// distributions of each strategy alone are in 06-speedup.bench.ts (`npx vitest bench`).
import { beforeAll, describe, it } from 'vitest';
import {
  BatchLoader,
  MNIST_SPEEDUP_ID,
  samplePairs,
  median,
  CLOCK,
  timeSynced,
  ratioFromPairs,
  hostProbe,
  hostProbeMetric,
  gpuClockMetrics,
  readGpuClocks,
  timeMetric,
  recordMetrics,
  withExtraWork,
  useBackend,
  useConfig,
  useMnist,
  useSizes,
  ARTICLE_BATCH,
  cpuNormalize,
  deviceNormalize,
  type BackendContext,
  type Batch,
} from 'gpu-transfer-perf';

let context: BackendContext;
let batches: Batch[];

beforeAll(async () => {
  context = await useBackend();
  // Full batches only, so every pair moves the same 64 images' worth of bytes.
  batches = [...new BatchLoader(await useMnist(), { ...ARTICLE_BATCH, dropLast: true }).epoch(0)];
});

describe('speedup of device-normalize over cpu-normalize (section 6)', () => {
  it('times both strategies in interleaved pairs, synced with the device', async ({ task }) => {
    const sizes = useSizes();
    const host = cpuNormalize(context);
    const plain = deviceNormalize();
    // npm run perf:calibrate only: a device-normalize that does more real work, to see it caught.
    const device = await withExtraWork(plain, useConfig().extraWork ?? 0, batches[0]!, () => timeSynced(context, () => plain.toDevice(batches[0]!)));
    // Each pair sends the same batch both ways, whichever goes first; the next pair the next batch.
    const batchOf = (round: number) => batches[round % batches.length]!;
    // The GPU's clocks before and after the pairs (an idle GPU clocks down): information beside the probe.
    const clocksBefore = readGpuClocks();
    const samples = await samplePairs({
      warmupPairs: sizes.warmupPairs,
      pairs: sizes.pairs,
      runA: (round) => timeSynced(context, () => host.toDevice(batchOf(round))),
      runB: (round) => timeSynced(context, () => device.toDevice(batchOf(round))),
      // The host's state before each pair: the ratio's cross-process verdicts are adjusted for it.
      probe: hostProbe(),
    });
    const clocks = { before: clocksBefore, after: readGpuClocks() };
    const what = 'one [64,28,28,1] batch from uint8 pixels to a normalized float32 tensor on the device';
    await recordMetrics(
      task,
      ratioFromPairs(MNIST_SPEEDUP_ID, samples, {
        detail: `median over interleaved pairs of time(cpu-normalize)/time(device-normalize), 95% percentile-bootstrap CI; ${what}; ${CLOCK}`,
        labels: { a: 'cpu-normalize', b: 'device-normalize' },
      }),
      hostProbeMetric(MNIST_SPEEDUP_ID, samples.probe ?? [], clocks),
      ...gpuClockMetrics(MNIST_SPEEDUP_ID, clocks),
      timeMetric('mnist-transfer.time.cpu-normalize', median(samples.a), samples.a.length, {
        detail: `median; normalize on the host + upload float32; ${what}; ${CLOCK}`,
        labels: { strategy: 'cpu-normalize', table: 'stages', group: 'mnist-transfer', stage: 'total' },
      }),
      timeMetric('mnist-transfer.time.device-normalize', median(samples.b), samples.b.length, {
        detail: `median; upload packed uint8 + normalize kernel; ${what}; ${CLOCK}`,
        labels: { strategy: 'device-normalize', table: 'stages', group: 'mnist-transfer', stage: 'total' },
      }),
    );
  });
});
