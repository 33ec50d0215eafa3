// Article section 11 in a browser page: what each data type moves on the wire, uint8 / int8 /
// float16 / float32, into the same float32 model input on the device, counted at the API the
// backend uploads through, and how long each takes against float32 (interleaved rounds synced
// with the device, as perf/11-dtypes.perf.ts in Node; the same metric ids). On webgpu each type
// crosses at its size (1/1/2/4 B); webgl has no uint8, int8 or float16 tensor: the integer types
// go up as int32 and float16 as float32, 4 B an element each (wireCrossing says so in every
// metric). It asserts only exact bytes, never time.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ARTICLE_NORMALIZATION,
  bytesOfSynced,
  bytesMetric,
  CLOCK,
  DTYPE_BATCHES,
  encodeMnistBatches,
  encodePixels,
  median,
  ratioFromPairs,
  recordMetrics,
  sampleInterleaved,
  sendWireType,
  timeMetric,
  useBackend,
  useMnist,
  useSizes,
  WEBGL_SCALAR_BYTES,
  WIRE_DTYPES,
  wireByteLength,
  wireCrossing,
  type BackendContext,
  type EncodedBatch,
  type MetricInput,
  type WireDtype,
} from 'gpu-transfer-perf/browser';

// Distinct MNIST batches the rounds cycle through, so a round does not resend one array (as Node).
const MNIST_BATCHES = 8;
// Host encoding has no device in it and varies little: a few interleaved rounds are enough (as Node).
const MAX_ENCODE_ROUNDS = 15;

const batch = DTYPE_BATCHES.mnist;
let context: BackendContext;
let batches: EncodedBatch[];

beforeAll(async () => {
  context = await useBackend();
  batches = encodeMnistBatches(await useMnist(), MNIST_BATCHES);
});

/**
 * Bytes one batch of `dtype` moves here: its wire size where it crosses packed or as float32;
 * as int32 (webgl) 4 B a value plus the two normalization scalars' textures (WEBGL_SCALAR_BYTES).
 */
function expectedBytes(dtype: WireDtype, elements: number): number {
  const crossing = wireCrossing(dtype);
  if (crossing.as === 'packed') return wireByteLength(dtype, elements);
  return elements * crossing.bytesPerElement + (crossing.as === 'int32' ? WEBGL_SCALAR_BYTES : 0);
}

describe('data types on the wire, in the browser (section 11)', () => {
  it(`counts and times uint8 / int8 / float16 / float32 for the ${batch.id} batch`, async ({ task }) => {
    const elements = batch.shape.reduce((a, b) => a * b, 1);
    const labels = (quantity: string, dtype: WireDtype) => ({ table: 'dtypes', batch: batch.id, quantity, dtype, wire: wireCrossing(dtype).as });
    const send = (encoded: EncodedBatch, dtype: WireDtype) => sendWireType(context, encoded[dtype]);
    const metrics: MetricInput[] = [];

    // Bytes first, on one untimed transfer per type: exact, so asserted.
    for (const dtype of WIRE_DTYPES) {
      const bytes = await bytesOfSynced(context, () => send(batches[0]!, dtype));
      expect(bytes.dataBytes, dtype).toBe(expectedBytes(dtype, elements));
      metrics.push(
        bytesMetric(`dtypes.${batch.id}.upload-bytes.${dtype}`, bytes.dataBytes, 'measured', {
          detail: `tensor data host->device for ${batch.what} as ${dtype} on ${context.name} in the browser: ${wireCrossing(dtype).says}; counted at ${context.transfers.boundary}`,
          labels: labels('upload-bytes', dtype),
        }),
      );
    }

    const sizes = useSizes();
    const variants = WIRE_DTYPES.map((dtype) => (round: number) => send(batches[round % batches.length]!, dtype));
    const samples = await sampleInterleaved(variants, { rounds: sizes.pairs, warmupRounds: sizes.warmupPairs, context });
    const float32 = samples[WIRE_DTYPES.indexOf('float32')]!;
    const what = `${batch.what}, from host arrays already in that type to a float32 (x - 127.5) / 127.5 tensor on ${context.name} in the browser (transfer + device decode); ${CLOCK}`;
    WIRE_DTYPES.forEach((dtype, v) => {
      const times = samples[v]!;
      const how = wireCrossing(dtype).says;
      metrics.push(
        timeMetric(`dtypes.${batch.id}.time.${dtype}`, median(times), times.length, { detail: `median; ${how}; ${what}`, labels: labels('time', dtype) }),
      );
      if (dtype === 'float32') return;
      metrics.push(
        ratioFromPairs(
          `dtypes.${batch.id}.speedup-vs-float32.${dtype}`,
          { a: float32, b: times },
          {
            detail: `median over interleaved rounds of time(float32)/time(${dtype}), 95% percentile-bootstrap CI; above 1: ${dtype} is faster; ${how}; ${what}`,
            labels: labels('speedup-vs-float32', dtype),
          },
        ),
      );
    });

    // The host work that puts raw pixels into each type before sending (not in the times above).
    const pixels = batches[0]!.uint8.payload.values as Uint8Array;
    const encodeVariants = WIRE_DTYPES.map((dtype) => () => {
      const start = performance.now();
      encodePixels(dtype, pixels, batch.shape, ARTICLE_NORMALIZATION);
      return performance.now() - start;
    });
    const encodeSamples = await sampleInterleaved(encodeVariants, { rounds: Math.min(MAX_ENCODE_ROUNDS, sizes.pairs), warmupRounds: 1 });
    metrics.push(
      ...WIRE_DTYPES.map((dtype, v) =>
        timeMetric(`dtypes.${batch.id}.host-encode-time.${dtype}`, median(encodeSamples[v]!), encodeSamples[v]!.length, {
          detail: `median; host work in the page turning ${batch.what} from raw uint8 pixels into ${dtype} before sending (not in the transfer time); host clock, no device work`,
          labels: labels('host-encode-time', dtype),
        }),
      ),
    );
    await recordMetrics(task, ...metrics);
  });
});
