// Article section 12: transfer time against batch size, 32 to 512 images, both strategies.
// A timed scenario: at each size the two strategies run in interleaved pairs (same batch both
// ways, ABBA order), synced with the device; it asserts only the exact bytes on the wire.
// Figures per size: time per batch (median with CI), bytes per batch, pixels per second, the
// speedup with its CI. src/report/charts.ts draws them (log2 batch axis, CI bands).
// Then each size is cut into stages (host, upload, compute, GPU kernels) against the device's
// limit, as in 06-stages.perf.ts.
// --scale quick: every size, 60 pairs each; --scale full: 200 pairs each.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Progress,
  recordMetrics,
  useBackend,
  useConfig,
  useMnist,
  measureSweep,
  measureSweepStages,
  SWEEP_SIZES,
  sweepMetrics,
  cpuNormalize,
  deviceNormalize,
  type BackendContext,
} from 'gpu-transfer-perf';

let context: BackendContext;

beforeAll(async () => {
  context = await useBackend();
});

describe('transfer time against batch size (section 12)', () => {
  it('times both strategies at batch sizes 32..512, interleaved and synced', async ({ task }) => {
    const sizes = SWEEP_SIZES[useConfig().scale];
    const strategies = { a: cpuNormalize(context), b: deviceNormalize() };
    const progress = new Progress({ label: 'sweep (section 12)', total: sizes.batches.length * (sizes.warmupPairs + sizes.pairs), unit: 'pairs' });
    const points = await measureSweep(context, await useMnist(), strategies, sizes, progress);
    progress.finish();
    for (const p of points) {
      // Exact, so asserted: 4 bytes per pixel as float32, 1 as packed uint8 (on every backend).
      expect(p.bytes.a.dataBytes).toBe(p.pixelsPerBatch * strategies.a.wireBytesPerPixel());
      expect(p.bytes.b.dataBytes).toBe(p.pixelsPerBatch * strategies.b.wireBytesPerPixel());
    }
    await recordMetrics(task, ...sweepMetrics(points, { a: strategies.a.id, b: strategies.b.id }, context.transfers.boundary));
  });

  it('cuts each batch size into stages against the device limit', async ({ task }) => {
    await recordMetrics(task, ...(await measureSweepStages(context, await useMnist(), SWEEP_SIZES[useConfig().scale])));
  });
});
