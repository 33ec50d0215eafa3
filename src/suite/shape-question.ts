import type { BackendContext } from '../backend/types.js';
import { seededRng } from '../base/random.js';
import { samplePairs } from '../measure/paired.js';
import { median } from '../measure/statistics.js';
import { CLOCK, timeSynced } from '../measure/timer.js';
import { ratioFromPairs, timeMetric, type MetricInput } from '../results/metrics.js';
import type { Scale } from '../run-config.js';
import { IMAGENET_NORMALIZATION } from '../transfer/kernels/crop-mirror-normalize.js';
import { ARTICLE_NORMALIZATION } from '../transfer/normalization.js';
import {
  deviceChannelNormalize,
  hostChannelNormalize,
  stagedToDevice,
  wireDtypeTransfer,
  type ChannelNormalization,
} from '../transfer/strategies/staged-transfer.js';
import type { WireDtype } from '../transfer/wire-dtypes.js';
import { measuredUploadBytes } from './media-transfer.js';
import { measureStages, type StageInput } from './stage-breakdown.js';

/**
 * Samples per shape: interleaved pairs for the speedup and rounds of the stage breakdown. A
 * user's shape may be large (16x512x512x3 moves 50 MB as float32, ~0.1 s a transfer on a
 * software device), so quick keeps a shape near a few seconds; its CIs are wide accordingly.
 */
const SHAPE_SAMPLES: Record<Scale, { pairs: number; warmupPairs: number; stageRounds: number; batches: number }> = {
  quick: { pairs: 12, warmupPairs: 2, stageRounds: 4, batches: 2 },
  full: { pairs: 60, warmupPairs: 5, stageRounds: 20, batches: 4 },
};

/** A shape in metric ids and groups: '16x512x512x3' (channels last, as sent). */
export const shapeId = (shape: readonly number[]) => shape.join('x');

/** ImageNet's per-channel normalization for 3 channels; (x - 127.5) / 127.5 per channel otherwise. */
function normalizationFor(channels: number): ChannelNormalization {
  if (channels === 3) return IMAGENET_NORMALIZATION;
  const repeat = (v: number) => Array.from({ length: channels }, () => v);
  return { mean: repeat(ARTICLE_NORMALIZATION.mean), std: repeat(ARTICLE_NORMALIZATION.std) };
}

/** `count` batches of seeded uniform random pixels of `shape` (transfer cost does not depend on content). */
export function syntheticBatches(shape: readonly number[], count: number, seed = 2024): StageInput[] {
  const rng = seededRng(seed);
  const size = shape.reduce((a, b) => a * b, 1);
  return Array.from({ length: count }, () => {
    const pixels = new Uint8Array(size);
    for (let i = 0; i < size; i++) pixels[i] = rng.int(256);
    return { pixels, shape };
  });
}

/**
 * `gtp perf --shape`: at one [N,H,W,C] shape of seeded pixels, cpu-normalize (per-channel
 * normalize on the host, send float32) against device-normalize (send the bytes, the fused
 * normalize kernel on the device): bytes on the wire (measured), the speedup from interleaved
 * synced pairs, and the stage breakdown with the device limit; then each wire type of `dtypes`.
 */
export async function measureShape(context: BackendContext, shape: readonly number[], dtypes: readonly WireDtype[], scale: Scale): Promise<MetricInput[]> {
  const samples = SHAPE_SAMPLES[scale];
  const group = `shape.${shapeId(shape)}`;
  const what = `one [${shape.join(',')}] batch of seeded random uint8 pixels, to a normalized float32 tensor on the device`;
  const n = normalizationFor(shape[3]!);
  const strategies = [hostChannelNormalize(context, n), deviceChannelNormalize(context, n)] as const;
  const batches = syntheticBatches(shape, samples.batches);
  const batchOf = (round: number) => batches[round % batches.length]!;

  const metrics = await measuredUploadBytes(context, group, strategies, batches[0]!, what, group);
  const [a, b] = strategies;
  const pairs = await samplePairs({
    warmupPairs: samples.warmupPairs,
    pairs: samples.pairs,
    runA: (round) => timeSynced(context, () => stagedToDevice(a, batchOf(round).pixels, shape)),
    runB: (round) => timeSynced(context, () => stagedToDevice(b, batchOf(round).pixels, shape)),
  });
  metrics.push(
    ratioFromPairs(`${group}.speedup`, pairs, {
      detail: `median over ${samples.pairs} interleaved pairs of time(${a.id})/time(${b.id}), 95% percentile-bootstrap CI, measured in this one process; ${what}; ${CLOCK}`,
      labels: { group, a: a.id, b: b.id },
    }),
    ...[a, b].map((t, k) =>
      timeMetric(`${group}.time.${t.id}`, median(k === 0 ? pairs.a : pairs.b), samples.pairs, {
        detail: `median total of the interleaved pairs; ${what}; ${CLOCK}`,
        labels: { table: 'stages', group, strategy: t.id, stage: 'total' },
      }),
    ),
  );
  const rounds = Array.from({ length: samples.stageRounds }, (_, i) => batchOf(i));
  metrics.push(...(await measureStages(context, group, strategies, rounds, what)));

  if (dtypes.length > 0) {
    const typed = dtypes.map((dtype) => wireDtypeTransfer(context, dtype, ARTICLE_NORMALIZATION));
    const typesGroup = `${group}.dtypes`;
    const typesWhat = `${what}, encoded on the host as each type and decoded on the device ((x - 127.5) / 127.5)`;
    metrics.push(...(await measuredUploadBytes(context, typesGroup, typed, batches[0]!, typesWhat, typesGroup)));
    metrics.push(...(await measureStages(context, typesGroup, typed, rounds, typesWhat, { withTotal: true })));
  }
  return metrics;
}
