import type { BackendContext } from '../backend/types.js';
import { seededRng } from '../base/random.js';
import { sampleInterleaved, samplePairs } from '../measure/paired.js';
import { median } from '../measure/statistics.js';
import { CLOCK, timeSynced } from '../measure/timer.js';
import { ratioFromPairs, timeMetric, type MetricInput } from '../results/metrics.js';
import type { QuestionNormalization, Scale } from '../run-config.js';
import { ARTICLE_NORMALIZATION, IMAGENET_NORMALIZATION, normalizationInWords, type ChannelNormalization } from '../transfer/normalization.js';
import {
  deviceChannelNormalize,
  hostChannelNormalize,
  stagedToDevice,
  wireDtypeTransfer,
  type HostPayload,
  type StagedTransfer,
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

/** The default: ImageNet's per-channel normalization for 3 channels; (x - 127.5) / 127.5 per channel otherwise. */
function defaultNormalization(channels: number): ChannelNormalization {
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
 * What a shape question moves, each with the question's normalization (--mean/--std, else the
 * default): the two strategies (cpu-normalize, device-normalize) and the wire type of each of
 * `dtypes`.
 */
export function shapeTransfers(
  context: BackendContext,
  shape: readonly number[],
  dtypes: readonly WireDtype[],
  normalization?: QuestionNormalization,
): { n: ChannelNormalization; strategies: readonly [StagedTransfer, StagedTransfer]; typed: StagedTransfer[] } {
  const n = normalization ?? defaultNormalization(shape[3]!);
  return {
    n,
    strategies: [hostChannelNormalize(context, n), deviceChannelNormalize(context, n)],
    typed: dtypes.map((dtype) => wireDtypeTransfer(context, dtype, n)),
  };
}

/**
 * `gtp perf --shape`: at one [N,H,W,C] shape of seeded pixels, cpu-normalize (per-channel
 * normalize on the host, send float32) against device-normalize (send the bytes, the fused
 * normalize kernel on the device): bytes on the wire (measured), the speedup from interleaved
 * synced pairs, and the stage breakdown with the device limit; then each wire type of `dtypes`:
 * its bytes, stages, and its speedup against float32 (section 11's measure). Everything with
 * `normalization` (--mean/--std), else the default (ImageNet's for 3 channels).
 */
export async function measureShape(
  context: BackendContext,
  shape: readonly number[],
  dtypes: readonly WireDtype[],
  scale: Scale,
  normalization?: QuestionNormalization,
): Promise<MetricInput[]> {
  const samples = SHAPE_SAMPLES[scale];
  const group = `shape.${shapeId(shape)}`;
  const { n, strategies, typed } = shapeTransfers(context, shape, dtypes, normalization);
  const what = `one [${shape.join(',')}] batch of seeded random uint8 pixels, to a float32 tensor on the device ${normalizationInWords(n, normalization !== undefined)}`;
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
    const typesGroup = `${group}.dtypes`;
    const typesWhat = `${what}, encoded on the host as each type and decoded on the device`;
    metrics.push(...(await measuredUploadBytes(context, typesGroup, typed, batches[0]!, typesWhat, typesGroup)));
    metrics.push(...(await measureStages(context, typesGroup, typed, rounds, typesWhat, { withTotal: true })));
    metrics.push(...(await dtypeSpeedups(context, typesGroup, typed, n, batches, shape, samples, typesWhat)));
  }
  return metrics;
}

/** Upload and device decode of a payload already in its wire type (no host encoding): what section 11 times. */
function sendPrepared(t: StagedTransfer, payload: HostPayload, shape: readonly number[]) {
  const resident = t.upload(payload, shape);
  const out = t.compute(resident, shape);
  if (out !== resident) resident.dispose();
  return out;
}

/**
 * Section 11's measure at the user's shape (perf/11-dtypes.perf.ts): every asked type and
 * float32 (the reference, sampled even when not asked) in interleaved rounds of rotating order,
 * each from host arrays already in its type (encoded before timing) to the normalized float32
 * tensor on the device, synced; the median per type and, per type other than float32, the
 * median of time(float32)/time(type) over the rounds with its 95% bootstrap CI.
 */
async function dtypeSpeedups(
  context: BackendContext,
  group: string,
  typed: readonly StagedTransfer[],
  n: ChannelNormalization,
  batches: readonly StageInput[],
  shape: readonly number[],
  samples: { pairs: number; warmupPairs: number },
  what: string,
): Promise<MetricInput[]> {
  const float32 = typed.find((t) => t.id === 'float32') ?? wireDtypeTransfer(context, 'float32', n);
  const sampled = typed.some((t) => t === float32) ? typed : [...typed, float32];
  const prepared = sampled.map((t) => batches.map((input) => t.prepare(input.pixels)));
  const variants = sampled.map((t, k) => (round: number) => timeSynced(context, () => sendPrepared(t, prepared[k]![round % batches.length]!, shape)));
  const times = await sampleInterleaved(variants, { warmupRounds: samples.warmupPairs, rounds: samples.pairs });
  const reference = times[sampled.indexOf(float32)]!;
  const how = `from host arrays already in that type (host encoding not timed, see the host stage) to the float32 tensor on the device (upload + device decode); ${what}; ${CLOCK}`;
  const labels = (quantity: string, dtype: string) => ({ table: 'dtypes', group, quantity, dtype });
  return sampled.flatMap((t, k) => {
    if (!typed.includes(t)) return []; // float32 sampled as the reference only
    const time = timeMetric(`${group}.time.${t.id}`, median(times[k]!), times[k]!.length, {
      detail: `median over ${samples.pairs} interleaved rounds of every type; ${how}`,
      labels: labels('time', t.id),
    });
    if (t === float32) return [time];
    const ratio = ratioFromPairs(
      `${group}.speedup-vs-float32.${t.id}`,
      { a: reference, b: times[k]! },
      {
        detail: `median over ${samples.pairs} interleaved rounds of time(float32)/time(${t.id}), 95% percentile-bootstrap CI, measured in this one process; above 1: ${t.id} is faster; ${how}`,
        labels: labels('speedup-vs-float32', t.id),
      },
    );
    return [time, ratio];
  });
}
