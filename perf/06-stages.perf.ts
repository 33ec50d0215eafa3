// Article section 6, where the time goes: both strategies on the MNIST batch cut into stages
// (host preparation, upload, device compute; a sync after each), with the GPU kernel time, the
// sync floor and the device's limit (sync floor + bytes at its measured writeBuffer bandwidth +
// one pass at its measured copy bandwidth). Apart from 06-speedup.perf.ts, so that the
// cross-process speedup runs (perf:ab, CI's timing gate, perf:calibrate) stay short.
import { beforeAll, describe, it } from 'vitest';
import type { BackendContext } from '../src/backend/types.js';
import { BatchLoader, type Batch } from '../src/data/loader.js';
import { timeStages } from '../src/measure/stages.js';
import { measureStages } from '../src/suite/media-transfer.js';
import { recordMetrics } from '../src/suite/record.js';
import { useBackend, useMnist } from '../src/suite/session.js';
import { ARTICLE_BATCH } from '../src/suite/sizes.js';
import { ARTICLE_NORMALIZATION } from '../src/transfer/normalization.js';
import { devicePackedNormalize, hostChannelNormalize } from '../src/transfer/staged-transfer.js';

let context: BackendContext;
let batches: Batch[];

beforeAll(async () => {
  context = await useBackend();
  batches = [...new BatchLoader(await useMnist(), { ...ARTICLE_BATCH, dropLast: true }).epoch(0)].slice(0, 20);
});

describe('where the time of one MNIST batch goes (section 6)', () => {
  it('times each strategy stage by stage against the device limit', async ({ task }) => {
    const staged = [
      hostChannelNormalize(context, { mean: [ARTICLE_NORMALIZATION.mean], std: [ARTICLE_NORMALIZATION.std] }),
      devicePackedNormalize(context, ARTICLE_NORMALIZATION),
    ];
    const inputs = batches.map((b) => ({ pixels: b.images, shape: b.shape }));
    for (const t of staged) for (const input of inputs.slice(0, 3)) await timeStages(context, t, input.pixels, input.shape); // warm-up
    await recordMetrics(task, ...(await measureStages(context, 'mnist-transfer', staged, inputs, 'one [64,28,28,1] batch')));
  });
});
