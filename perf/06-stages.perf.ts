// Article section 6, where the time goes: both strategies on the MNIST batch cut into stages
// (host preparation, upload, device compute; a sync after each), with the GPU kernel time, the
// sync floor and the device's limit (sync floor + bytes at its measured writeBuffer bandwidth +
// one pass at its measured shader-copy bandwidth). Apart from 06-speedup.perf.ts, so that the
// cross-process speedup runs (perf:ab, CI's timing gate, perf:calibrate) stay short.
import { beforeAll, describe, it } from 'vitest';
import {
  BatchLoader,
  articleStagedStrategies,
  measureStages,
  recordMetrics,
  useBackend,
  useMnist,
  ARTICLE_BATCH,
  type BackendContext,
  type Batch,
} from 'gpu-transfer-perf';

let context: BackendContext;
let batches: Batch[];

beforeAll(async () => {
  context = await useBackend();
  batches = [...new BatchLoader(await useMnist(), { ...ARTICLE_BATCH, dropLast: true }).epoch(0)].slice(0, 20);
});

describe('where the time of one MNIST batch goes (section 6)', () => {
  it('times each strategy stage by stage against the device limit', async ({ task }) => {
    const staged = articleStagedStrategies(context);
    const inputs = batches.map((b) => ({ pixels: b.images, shape: b.shape }));
    await recordMetrics(task, ...(await measureStages(context, 'mnist-transfer', staged, inputs, 'one [64,28,28,1] batch', { warmupRounds: 3 })));
  });
});
