// Apart from sweep.ts: the stages measure the host copy (node:worker_threads), and the sweep
// itself runs in a browser page too (gpu-transfer-perf/browser), which loads no host module.
import type { BackendContext } from '../backend/types.js';
import type { ImageDataset } from '../data/dataset.js';
import type { MetricInput } from '../results/metrics.js';
import { articleStagedStrategies, measureStages } from './stage-breakdown.js';
import { type SweepSizes, sweepBatches } from './sweep.js';

/**
 * Where the time goes at each batch size: both strategies staged (stage-breakdown.ts) on the
 * sweep's batches, grouped as `sweep.b<size>`, with their totals, limits and kernel throughput.
 */
export async function measureSweepStages(context: BackendContext, data: ImageDataset, sizes: SweepSizes): Promise<MetricInput[]> {
  const metrics: MetricInput[] = [];
  const strategies = articleStagedStrategies(context);
  for (const size of sizes.batches) {
    const batches = sweepBatches(data, size, sizes.distinctBatches);
    const inputs = Array.from({ length: sizes.stageRounds }, (_, i) => ({ pixels: batches[i % batches.length]!.images, shape: batches[0]!.shape }));
    const what = `one [${size},28,28,1] batch`;
    metrics.push(...(await measureStages(context, `sweep.b${size}`, strategies, inputs, what, { withTotal: true })));
  }
  return metrics;
}
