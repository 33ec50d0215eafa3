// Article section 6, as vitest benchmarks (`npx vitest bench --run`): the latency distribution
// of each strategy alone (tinybench underneath), every sample stopped after a device sync.
// These are not the speedup: tinybench runs one task after the other, so drift and background
// load can land on one side; the interleaved-pair speedup with its CI is 06-speedup.perf.ts.
import { bench, describe } from 'vitest';
import { BatchLoader, benchName, BENCH_OPTIONS, syncedBench, useBackend, useMnist, ARTICLE_BATCH, cpuNormalize, deviceNormalize } from 'gpu-transfer-perf';

// bench mode runs no suite hooks: set up at the top level.
const context = await useBackend();
const batches = [...new BatchLoader(await useMnist(), { ...ARTICLE_BATCH, dropLast: true }).epoch(0)];
const pixels = batches[0]!.images.length;

describe('section 6: one [64,28,28,1] uint8 batch to a normalized float32 tensor on the device', () => {
  const host = cpuNormalize(context);
  const device = deviceNormalize();
  bench(
    benchName('cpu-normalize', pixels * host.wireBytesPerPixel()),
    syncedBench(context, batches, (b) => host.toDevice(b)),
    BENCH_OPTIONS,
  );
  bench(
    benchName('device-normalize', pixels * device.wireBytesPerPixel()),
    syncedBench(context, batches, (b) => device.toDevice(b)),
    BENCH_OPTIONS,
  );
});
