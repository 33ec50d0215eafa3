// Article section 11: how long does each data type take on the wire, uint8 / int8 / float16 /
// float32, each sent at its true size and decoded into the same float32 model input on the
// device? A benchmark, not a timed test: it asserts only exact bytes, never time. All four
// types run in interleaved rounds (rotating order) so drift hits them alike; the ratio of each
// to float32 comes with a 95% bootstrap CI. Host encoding (normalize, float16 rounding) is done
// before timing, as in the article, which times tensors already in each type.
import { beforeAll, describe, expect, it } from 'vitest';
import { countTransfers } from '../src/backend/transfer-counter.js';
import type { BackendContext } from '../src/backend/types.js';
import { sampleInterleaved } from '../src/measure/paired.js';
import { estimateSpeedup } from '../src/measure/speedup.js';
import { median } from '../src/measure/statistics.js';
import { CLOCK, timeSynced } from '../src/measure/timer.js';
import type { Metric } from '../src/results/schema.js';
import { speedupMetric } from '../src/results/speedup-metric.js';
import { recordMetrics } from '../src/results/task-meta.js';
import { DTYPE_BATCHES, encodedLargeBatch, encodedMnistBatches, LARGE_BATCH_ROUNDS, type DtypeBatch, type EncodedBatch } from '../src/suite/dtype-batches.js';
import { useBackend, useConfig } from '../src/suite/session.js';
import { SIZES } from '../src/suite/sizes.js';
import { ARTICLE_NORMALIZATION } from '../src/transfer/normalization.js';
import { encodePixels } from '../src/transfer/payload.js';
import { sendPayload } from '../src/transfer/send-payload.js';
import { WIRE_DTYPES, wireByteLength, type WireDtype } from '../src/transfer/wire-dtypes.js';

const SCENARIO = 'dtypes';
// Distinct MNIST batches the rounds cycle through, so a round does not resend one array.
const MNIST_BATCHES = 8;
// Host encoding has no device in it and varies little: a few interleaved rounds are enough.
const MAX_ENCODE_ROUNDS = 15;

let context: BackendContext;

beforeAll(async () => {
  context = await useBackend();
});

/** Times the four types in interleaved rounds over `batches` and returns the batch's metrics. */
async function measureBatch(
  batch: DtypeBatch,
  batches: readonly EncodedBatch[],
  rounds: { rounds: number; warmupRounds: number },
): Promise<Metric[]> {
  const elements = batch.shape.reduce((a, b) => a * b, 1);
  const metrics: Metric[] = [];
  const send = (encoded: EncodedBatch, dtype: WireDtype) => sendPayload(context, encoded[dtype].payload, encoded[dtype].deviceNormalization);

  // Bytes first, on one untimed transfer per type: exact, so asserted.
  for (const dtype of WIRE_DTYPES) {
    const { result, bytes } = await countTransfers(context.transfers, async () => {
      const out = send(batches[0]!, dtype);
      await context.sync(out);
      return out;
    });
    result.dispose();
    expect(bytes.dataBytes).toBe(wireByteLength(dtype, elements));
    metrics.push({
      id: `dtypes.${batch.id}.upload-bytes.${dtype}`,
      scenario: SCENARIO,
      kind: 'exact',
      value: bytes.dataBytes,
      unit: 'B',
      source: 'measured',
      detail: `tensor data host->device for ${batch.what} as ${dtype}; counted at ${context.transfers.boundary}`,
    });
  }

  // Each round sends one batch as every type, whatever the rotation; the next round the next batch.
  const variants = WIRE_DTYPES.map((dtype) => (round: number) => timeSynced(context, () => send(batches[round % batches.length]!, dtype)));
  const samples = await sampleInterleaved(variants, rounds);
  const float32 = samples[WIRE_DTYPES.indexOf('float32')]!;
  const what = `${batch.what}, from host arrays already in that type to a float32 (x - 127.5) / 127.5 tensor on the device (transfer + device decode); ${CLOCK}`;
  WIRE_DTYPES.forEach((dtype, v) => {
    const times = samples[v]!;
    metrics.push({
      id: `dtypes.${batch.id}.time.${dtype}`,
      scenario: SCENARIO,
      kind: 'time',
      value: median(times),
      unit: 'ms',
      n: times.length,
      source: 'measured',
      detail: `median; ${what}`,
    });
    if (dtype === 'float32') return;
    const speedup = estimateSpeedup({ a: float32, b: times });
    metrics.push(
      speedupMetric(
        `dtypes.${batch.id}.speedup-vs-float32.${dtype}`,
        SCENARIO,
        speedup,
        { a: float32, b: times },
        `median over interleaved rounds of time(float32)/time(${dtype}), 95% percentile-bootstrap CI; above 1: ${dtype} is faster; ${what}`,
      ),
    );
  });
  metrics.push(...(await measureEncoding(batch, batches[0]!, { rounds: Math.min(MAX_ENCODE_ROUNDS, rounds.rounds), warmupRounds: 1 })));
  return metrics;
}

/**
 * Times the host work that puts raw pixels into each type before it is sent (not part of the
 * transfer times above): none for uint8 (a view), x ^ 0x80 for int8, normalize and round to
 * half for float16, normalize for float32 (the article's CPU-normalize step).
 */
async function measureEncoding(
  batch: DtypeBatch,
  encoded: EncodedBatch,
  rounds: { rounds: number; warmupRounds: number },
): Promise<Metric[]> {
  const pixels = encoded.uint8.payload.values as Uint8Array;
  const variants = WIRE_DTYPES.map((dtype) => async () => {
    const start = performance.now();
    encodePixels(dtype, pixels, batch.shape, ARTICLE_NORMALIZATION);
    return performance.now() - start;
  });
  const samples = await sampleInterleaved(variants, rounds);
  return WIRE_DTYPES.map((dtype, v) => ({
    id: `dtypes.${batch.id}.host-encode-time.${dtype}`,
    scenario: SCENARIO,
    kind: 'time',
    value: median(samples[v]!),
    unit: 'ms',
    n: samples[v]!.length,
    source: 'measured',
    detail: `median; host work turning ${batch.what} from raw uint8 pixels into ${dtype} before sending (not in the transfer time); host clock, no device work`,
  }));
}

describe('data types on the wire, timed (section 11)', () => {
  it(`times uint8 / int8 / float16 / float32 for the ${DTYPE_BATCHES.mnist.id} batch`, async ({ task }) => {
    const sizes = SIZES[useConfig().scale];
    const metrics = await measureBatch(DTYPE_BATCHES.mnist, await encodedMnistBatches(MNIST_BATCHES), {
      rounds: sizes.pairs,
      warmupRounds: sizes.warmupPairs,
    });
    recordMetrics(task, context, ...metrics);
  });

  it(`times uint8 / int8 / float16 / float32 for a ${DTYPE_BATCHES.large.id} batch`, async ({ task }) => {
    const metrics = await measureBatch(DTYPE_BATCHES.large, [encodedLargeBatch()], LARGE_BATCH_ROUNDS[useConfig().scale]);
    recordMetrics(task, context, ...metrics);
  });
});
