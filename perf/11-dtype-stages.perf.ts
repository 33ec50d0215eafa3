// Article section 11, where the time goes: each data type cut into stages (host encoding,
// upload, device decode, its GPU kernels; a sync after each), with the sync floor, the total
// and the device's limit, at the MNIST batch and the large batch. Apart from 11-dtypes.perf.ts,
// so that the cross-process dtype ratios (perf:ab, CI's timing gate) stay short.
import { beforeAll, describe, it } from 'vitest';
import {
  DTYPE_BATCHES,
  encodedLargeBatch,
  encodedMnistBatches,
  recordMetrics,
  useBackend,
  useConfig,
  measureStages,
  ARTICLE_NORMALIZATION,
  wireDtypeTransfer,
  WIRE_DTYPES,
  type BackendContext,
  type DtypeBatch,
  type EncodedBatch,
} from 'gpu-transfer-perf';

/** Rounds per batch (each syncs four times per type): medians settle in ~10 at MNIST size; the large batch costs ~0.2 s a round. */
const ROUNDS = { quick: { mnist: 10, large: 4 }, full: { mnist: 50, large: 20 } } as const;

let context: BackendContext;

beforeAll(async () => {
  context = await useBackend();
});

/** Stage breakdown of the four types over `rounds` rounds cycling through the batches' raw pixels. */
async function stagesOf(batch: DtypeBatch, batches: readonly EncodedBatch[], rounds: number) {
  const staged = WIRE_DTYPES.map((dtype) => wireDtypeTransfer(context, dtype, ARTICLE_NORMALIZATION));
  const pixels = batches.map((b) => ({ pixels: b.uint8.payload.values as Uint8Array, shape: batch.shape }));
  const inputs = Array.from({ length: rounds }, (_, i) => pixels[i % pixels.length]!);
  return measureStages(context, `dtypes.${batch.id}`, staged, inputs, `${batch.what}, encoded on the host from raw pixels`, { withTotal: true });
}

describe('where the time of each data type goes (section 11)', () => {
  it(`cuts uint8 / int8 / float16 / float32 into stages for the ${DTYPE_BATCHES.mnist.id} batch`, async ({ task }) => {
    await recordMetrics(task, ...(await stagesOf(DTYPE_BATCHES.mnist, await encodedMnistBatches(8), ROUNDS[useConfig().scale].mnist)));
  });

  it(`cuts uint8 / int8 / float16 / float32 into stages for a ${DTYPE_BATCHES.large.id} batch`, async ({ task }) => {
    await recordMetrics(task, ...(await stagesOf(DTYPE_BATCHES.large, [encodedLargeBatch()], ROUNDS[useConfig().scale].large)));
  });
});
