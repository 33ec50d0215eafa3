// Issue 13, "what users would write instead": device-normalize against the two things a tfjs
// user writes without this harness, in the same interleaved rounds, synced with the device:
// (a) the naive port `tf.tensor(u8, shape, 'int32').sub(127.5).div(127.5)` (4 bytes per pixel
// on the wire) and (b) a tf.data pipeline (generator over the images, map normalize, batch).
// A timed scenario: it asserts only that all three give the same values (within float32
// rounding of their operations, normalizeAgreementBound); the figures go to
// the run record and are judged against baselines. device-normalize and the naive port are
// also cut into stages against the device's limit (tf.data's stages are its own).
import type * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BatchLoader,
  seededRng,
  sampleInterleaved,
  maxAbsDiff,
  normalizeAgreementBound,
  median,
  CLOCK,
  timeSynced,
  ratioFromPairs,
  timeMetric,
  recordMetrics,
  useBackend,
  useConfig,
  useMnist,
  ARTICLE_BATCH,
  measureStages,
  naiveTfjsNormalize,
  naiveTfjsStaged,
  tfDataNormalize,
  ARTICLE_NORMALIZATION,
  devicePackedNormalize,
  deviceNormalize,
  type BackendContext,
  type MetricInput,
  type Scale,
  type RawBatch,
  type PixelBatch,
} from 'gpu-transfer-perf';

/**
 * Rounds per batch size and scale. Every round times device-normalize and the naive port; the
 * first `slowRounds` also time tf.data (about 0.05-0.25 s a batch at MNIST size and 1.2-3 s at
 * 32x224x224x3 on lavapipe, where device-normalize takes milliseconds).
 */
const ROUNDS: Record<Scale, Record<'mnist' | 'large', { rounds: number; slowRounds: number; warmupRounds: number }>> = {
  quick: { mnist: { rounds: 100, slowRounds: 10, warmupRounds: 2 }, large: { rounds: 8, slowRounds: 3, warmupRounds: 1 } },
  full: { mnist: { rounds: 500, slowRounds: 50, warmupRounds: 5 }, large: { rounds: 40, slowRounds: 10, warmupRounds: 2 } },
};

type VariantId = 'device-normalize' | 'naive-tfjs' | 'tf-data';

/** Each way to get the normalized batch, timed synced; device-normalize with its fastest defaults. */
function variants(context: BackendContext): Record<VariantId, (batch: RawBatch) => Promise<number>> {
  const device = deviceNormalize(ARTICLE_NORMALIZATION);
  return {
    'device-normalize': (batch) => timeSynced(context, () => device.toDevice(batch as PixelBatch)),
    'naive-tfjs': (batch) => timeSynced(context, () => naiveTfjsNormalize(batch)),
    'tf-data': (batch) => timeSynced(context, () => tfDataNormalize(batch)),
  };
}

/**
 * How far the three may differ. They do
 * the same arithmetic in other operations (device-normalize's kernel, tfjs's sub and div), each
 * rounding per operation, and a GPU's division is not correctly rounded (2.5 ulp in WGSL), so
 * bit equality holds only where a device rounds like the host (lavapipe: 0; the H200: 1.79e-7).
 * Bound: each path has at most 8 roundings of u = 2^-24 per term of (x - 127.5) / 127.5, whose
 * terms sum to at most (255 + 127.5) / 127.5 = 3, so each lies within gamma_8 * 3 of the exact
 * value and two within 2 gamma_8 * 3 = 2.9e-6 (Higham, "Accuracy and Stability of Numerical
 * Algorithms", 2nd ed., §2.2 and §3.1; src/measure/float-bounds.ts). Off by one step of 1/255
 * is 7.8e-3 apart, 2,700 times that.
 */
const SAME_VALUES_BOUND = normalizeAgreementBound(ARTICLE_NORMALIZATION);

/** The three give the same float32 values, up to SAME_VALUES_BOUND; checked once per batch size. */
async function expectSameValues(batch: RawBatch): Promise<void> {
  const read = async (t: tf.Tensor): Promise<Float32Array> => {
    const values = (await t.data()) as Float32Array;
    t.dispose();
    return values;
  };
  const reference = await read(deviceNormalize(ARTICLE_NORMALIZATION).toDevice(batch as PixelBatch));
  expect(maxAbsDiff(await read(naiveTfjsNormalize(batch)), reference)).toBeLessThanOrEqual(SAME_VALUES_BOUND);
  expect(maxAbsDiff(await read(await tfDataNormalize(batch)), reference)).toBeLessThanOrEqual(SAME_VALUES_BOUND);
}

interface Measured {
  readonly samples: Record<VariantId, number[]>;
  readonly rounds: number;
  readonly slowRounds: number;
  readonly warmupRounds: number;
}

/**
 * Interleaved rounds (order rotating): all three for the first slowRounds, then device-normalize
 * and the naive port alone. Round r works on batchOf(r), whatever the order.
 */
async function measure(context: BackendContext, batchOf: (round: number) => RawBatch, size: 'mnist' | 'large'): Promise<Measured> {
  const { rounds, slowRounds, warmupRounds } = ROUNDS[useConfig().scale][size];
  const run = variants(context);
  const timed = (id: VariantId) => (round: number) => run[id](batchOf(round));
  const [d1, n1, t1] = await sampleInterleaved([timed('device-normalize'), timed('naive-tfjs'), timed('tf-data')], { warmupRounds, rounds: slowRounds });
  const [d2, n2] = await sampleInterleaved([timed('device-normalize'), timed('naive-tfjs')], { warmupRounds: 0, rounds: rounds - slowRounds });
  return {
    samples: { 'device-normalize': [...d1!, ...d2!], 'naive-tfjs': [...n1!, ...n2!], 'tf-data': t1! },
    rounds,
    slowRounds,
    warmupRounds,
  };
}

/** Speedups of device-normalize over each alternative (ratioFromPairs, paired by round) and the three medians. */
function alternativesMetrics(label: string, what: string, m: Measured): MetricInput[] {
  const { samples } = m;
  const device = samples['device-normalize'];
  const rounds = `${m.rounds} interleaved rounds (+${m.warmupRounds} warm-up) of device-normalize and the naive port, tf.data in the first ${m.slowRounds} of them only (it is the slow one)`;
  const labels = (quantity: string, variant: VariantId) => ({ table: 'alternatives', batch: label, quantity, variant });
  const speedup = (variant: Exclude<VariantId, 'device-normalize'>, how: string): MetricInput => {
    const alternative = samples[variant];
    return ratioFromPairs(
      `alternatives.${label}.speedup-vs-${variant}`,
      { a: alternative, b: device.slice(0, alternative.length) },
      {
        detail: `median over rounds of time(${variant})/time(device-normalize), 95% percentile-bootstrap CI; ${how}; ${what}; ${rounds}; ${CLOCK}`,
        labels: labels('speedup', variant),
      },
    );
  };
  const time = (variant: VariantId, how: string): MetricInput =>
    timeMetric(`alternatives.${label}.time.${variant}`, median(samples[variant]), samples[variant].length, {
      detail: `median; ${how}; ${what}; ${CLOCK}`,
      labels: labels('time', variant),
    });
  const naive = "tf.tensor(u8, shape, 'int32').sub(127.5).div(127.5): 4 bytes per pixel on the wire, two kernels";
  const data = `tf.data.generator over the images' bytes, map(tensor int32 .sub(127.5).div(127.5)) per image, batch(${label.split('x')[0]}): one upload and two kernels per image, then a stack`;
  const ours = 'device-normalize: packed uint8 by writeBuffer (1 byte per pixel) + the vec4 normalize kernel';
  return [speedup('naive-tfjs', naive), speedup('tf-data', data), time('device-normalize', ours), time('naive-tfjs', naive), time('tf-data', data)];
}

/**
 * Where the time goes for device-normalize and the naive port (stage-breakdown.ts), on `rounds`
 * of the batches; tf.data's stages are inside tf.data (generator, map, batch), so it has none.
 */
function stagesOf(label: string, what: string, batchOf: (round: number) => RawBatch, rounds: number): Promise<MetricInput[]> {
  const staged = [devicePackedNormalize(context, ARTICLE_NORMALIZATION), naiveTfjsStaged(context)];
  const inputs = Array.from({ length: rounds }, (_, r) => ({ pixels: batchOf(r).images, shape: batchOf(r).shape }));
  return measureStages(context, `alternatives.${label}`, staged, inputs, what, { withTotal: true });
}

let context: BackendContext;

beforeAll(async () => {
  context = await useBackend();
});

describe('device-normalize vs what users would write instead (issue 13)', () => {
  it('MNIST batch [64,28,28,1]: the naive tfjs port and a tf.data pipeline', async ({ task }) => {
    const batches = [...new BatchLoader(await useMnist(), { ...ARTICLE_BATCH, dropLast: true }).epoch(0)];
    const batchOf = (round: number): RawBatch => batches[round % batches.length]!;
    await expectSameValues(batchOf(0));
    const m = await measure(context, batchOf, 'mnist');
    const what = 'one [64,28,28,1] MNIST batch from uint8 pixels to a normalized float32 tensor on the device';
    await recordMetrics(task, ...alternativesMetrics('64x28x28x1', what, m), ...(await stagesOf('64x28x28x1', what, batchOf, 10)));
  });

  it('large batch [32,224,224,3]: the naive tfjs port and a tf.data pipeline', async ({ task }) => {
    const shape = [32, 224, 224, 3] as const;
    const rng = seededRng(224);
    const batches = [0, 1].map((): RawBatch => ({ images: Uint8Array.from({ length: 32 * 224 * 224 * 3 }, () => rng.int(256)), shape }));
    const batchOf = (round: number): RawBatch => batches[round % batches.length]!;
    await expectSameValues(batchOf(0));
    const m = await measure(context, batchOf, 'large');
    const what = 'one [32,224,224,3] batch of seeded random uint8 pixels to a normalized float32 tensor on the device';
    await recordMetrics(task, ...alternativesMetrics('32x224x224x3', what, m), ...(await stagesOf('32x224x224x3', what, batchOf, 4)));
  });
});
