// Article section 11: how long does each data type take on the wire, uint8 / int8 / float16 /
// float32, each sent at its true size and decoded into the same float32 model input on the
// device? A benchmark, not a timed test: it asserts only exact bytes, never time. All four
// types run in interleaved rounds (rotating order) so drift hits them alike; the ratio of each
// to float32 comes with a 95% bootstrap CI. Host encoding (normalize, float16 rounding) is done
// before timing, as in the article, which times tensors already in each type. Interleaved rounds
// need the harness's sampler (tinybench runs one task after another); per-type latency
// distributions alone are in 11-dtypes.bench.ts (`npx vitest bench`). Where each type's time
// goes is in 11-dtype-stages.perf.ts.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bytesOfSynced,
  sampleInterleaved,
  probeEachRound,
  median,
  CLOCK,
  timeSynced,
  bytesMetric,
  ratioFromPairs,
  hostProbe,
  hostProbeId,
  hostProbeMetric,
  gpuClockMetrics,
  readGpuClocks,
  timeMetric,
  DTYPE_BATCHES,
  encodedLargeBatch,
  encodedMnistBatches,
  LARGE_BATCH_ROUNDS,
  recordMetrics,
  useBackend,
  useConfig,
  useSizes,
  ARTICLE_NORMALIZATION,
  encodePixels,
  sendPayload,
  WIRE_DTYPES,
  wireByteLength,
  type BackendContext,
  type MetricInput,
  type DtypeBatch,
  type EncodedBatch,
  type WireDtype,
} from 'gpu-transfer-perf';

// Distinct MNIST batches the rounds cycle through, so a round does not resend one array.
const MNIST_BATCHES = 8;
// Host encoding has no device in it and varies little: a few interleaved rounds are enough.
const MAX_ENCODE_ROUNDS = 15;

let context: BackendContext;

beforeAll(async () => {
  context = await useBackend();
});

/** Times the four types in interleaved rounds over `batches` and returns the batch's metrics. */
async function measureBatch(batch: DtypeBatch, batches: readonly EncodedBatch[], rounds: { rounds: number; warmupRounds: number }): Promise<MetricInput[]> {
  const elements = tf.util.sizeFromShape([...batch.shape]);
  const metrics: MetricInput[] = [];
  const labels = (quantity: string, dtype: WireDtype) => ({ table: 'dtypes', batch: batch.id, quantity, dtype });
  const send = (encoded: EncodedBatch, dtype: WireDtype) => sendPayload(context, encoded[dtype].payload, encoded[dtype].deviceNormalization);

  // Bytes first, on one untimed transfer per type: exact, so asserted.
  for (const dtype of WIRE_DTYPES) {
    const bytes = await bytesOfSynced(context, () => send(batches[0]!, dtype));
    expect(bytes.dataBytes).toBe(wireByteLength(dtype, elements));
    metrics.push(
      bytesMetric(`dtypes.${batch.id}.upload-bytes.${dtype}`, bytes.dataBytes, 'measured', {
        detail: `tensor data host->device for ${batch.what} as ${dtype}; counted at ${context.transfers.boundary}`,
        labels: labels('upload-bytes', dtype),
      }),
    );
  }

  // Each round sends one batch as every type, whatever the rotation; the next round the next batch.
  const variants = WIRE_DTYPES.map((dtype) => (round: number) => timeSynced(context, () => send(batches[round % batches.length]!, dtype)));
  // The host's state before each round: the ratios' cross-process verdicts are adjusted for it.
  const probe = probeEachRound(hostProbe(), rounds.warmupRounds);
  // The GPU's clocks before and after the rounds (an idle GPU clocks down): information beside the probe.
  const clocksBefore = readGpuClocks();
  const samples = await sampleInterleaved(variants, { ...rounds, beforeRound: probe.beforeRound });
  const clocks = { before: clocksBefore, after: readGpuClocks() };
  const group = `dtypes.${batch.id}`;
  metrics.push(hostProbeMetric(group, probe.timings, clocks), ...gpuClockMetrics(group, clocks));
  const float32 = samples[WIRE_DTYPES.indexOf('float32')]!;
  const what = `${batch.what}, from host arrays already in that type to a float32 (x - 127.5) / 127.5 tensor on the device (transfer + device decode); ${CLOCK}`;
  WIRE_DTYPES.forEach((dtype, v) => {
    const times = samples[v]!;
    metrics.push(timeMetric(`dtypes.${batch.id}.time.${dtype}`, median(times), times.length, { detail: `median; ${what}`, labels: labels('time', dtype) }));
    if (dtype === 'float32') return;
    metrics.push(
      ratioFromPairs(
        `dtypes.${batch.id}.speedup-vs-float32.${dtype}`,
        { a: float32, b: times },
        {
          detail: `median over interleaved rounds of time(float32)/time(${dtype}), 95% percentile-bootstrap CI; above 1: ${dtype} is faster; ${what}`,
          labels: { ...labels('speedup-vs-float32', dtype), covariate: hostProbeId(group) },
        },
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
async function measureEncoding(batch: DtypeBatch, encoded: EncodedBatch, rounds: { rounds: number; warmupRounds: number }): Promise<MetricInput[]> {
  const pixels = encoded.uint8.payload.values as Uint8Array;
  const variants = WIRE_DTYPES.map((dtype) => async () => {
    const start = performance.now();
    encodePixels(dtype, pixels, batch.shape, ARTICLE_NORMALIZATION);
    return performance.now() - start;
  });
  const samples = await sampleInterleaved(variants, rounds);
  return WIRE_DTYPES.map((dtype, v) =>
    timeMetric(`dtypes.${batch.id}.host-encode-time.${dtype}`, median(samples[v]!), samples[v]!.length, {
      detail: `median; host work turning ${batch.what} from raw uint8 pixels into ${dtype} before sending (not in the transfer time); host clock, no device work`,
      labels: { table: 'dtypes', batch: batch.id, quantity: 'host-encode-time', dtype },
    }),
  );
}

describe('data types on the wire, timed (section 11)', () => {
  it(`times uint8 / int8 / float16 / float32 for the ${DTYPE_BATCHES.mnist.id} batch`, async ({ task }) => {
    const sizes = useSizes();
    const metrics = await measureBatch(DTYPE_BATCHES.mnist, await encodedMnistBatches(MNIST_BATCHES), {
      rounds: sizes.pairs,
      warmupRounds: sizes.warmupPairs,
    });
    await recordMetrics(task, ...metrics);
  });

  it(`times uint8 / int8 / float16 / float32 for a ${DTYPE_BATCHES.large.id} batch`, async ({ task }) => {
    const metrics = await measureBatch(DTYPE_BATCHES.large, [encodedLargeBatch()], LARGE_BATCH_ROUNDS[useConfig().scale]);
    await recordMetrics(task, ...metrics);
  });
});
