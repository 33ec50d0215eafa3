import type { BackendContext } from '../backend/types.js';
import type { ImageDataset } from '../data/dataset.js';
import { BatchLoader, type Batch } from '../data/loader.js';
import { seededRng } from '../base/random.js';
import { bytesOfSynced } from '../backend/synced-transfers.js';
import type { TransferTotals } from '../backend/transfer-counter.js';
import { samplePairs, type PairedSamples } from '../measure/paired.js';
import { bootstrapCI, median } from '../measure/statistics.js';
import { CLOCK, timeSynced } from '../measure/timer.js';
import type { Progress } from '../measure/progress.js';
import { bytesMetric, qualityMetric, ratioFromPairs, timeMetric, type MetricInput } from '../results/metrics.js';
import type { Scale } from '../run-config.js';
import type { TransferStrategy } from '../transfer/strategies/strategies.js';

/** The article's section 12 sweep: batch sizes 32..512. */
export const SWEEP_BATCHES = [32, 64, 128, 256, 512] as const;

export interface SweepSizes {
  readonly batches: readonly number[];
  /** Interleaved pairs timed per batch size, after the warm-up pairs. */
  readonly pairs: number;
  readonly warmupPairs: number;
  /** Distinct batches each size cycles through, so a pair does not resend one array. */
  readonly distinctBatches: number;
  /** Rounds of the stage breakdown per size (each stage synced, so fewer than the pairs). */
  readonly stageRounds: number;
}

export const SWEEP_SIZES: Record<Scale, SweepSizes> = {
  // Every size at both scales (the chart needs them); quick times 60 pairs per size instead of
  // 200: at 512 images a pair costs a few ms on lavapipe, so the whole sweep stays ~10 s, and
  // the speedup's CI is about twice as wide (CI width ~ 1/sqrt(n)).
  quick: { batches: SWEEP_BATCHES, pairs: 60, warmupPairs: 5, distinctBatches: 4, stageRounds: 8 },
  full: { batches: SWEEP_BATCHES, pairs: 200, warmupPairs: 20, distinctBatches: 8, stageRounds: 40 },
};

/** One batch size's measurements. */
export interface SweepPoint {
  readonly batch: number;
  readonly pixelsPerBatch: number;
  readonly samples: PairedSamples;
  readonly bytes: { readonly a: TransferTotals; readonly b: TransferTotals };
}

/** The first `count` full batches of `size` images of the article's shuffled loader. */
export function sweepBatches(data: ImageDataset, size: number, count: number): Batch[] {
  const batches: Batch[] = [];
  for (const b of new BatchLoader(data, { batchSize: size, shuffle: true, seed: 2024, dropLast: true }).epoch(0)) {
    batches.push(b);
    if (batches.length === count) break;
  }
  return batches;
}

/**
 * Article section 12: for each batch size, both strategies in interleaved pairs (ABBA order,
 * each pair the same batch both ways), synced with the device, plus the bytes one transfer
 * of each moves, counted at the API boundary.
 */
export async function measureSweep(
  context: BackendContext,
  data: ImageDataset,
  strategies: { readonly a: TransferStrategy; readonly b: TransferStrategy },
  sizes: SweepSizes,
  progress?: Progress,
): Promise<SweepPoint[]> {
  const points: SweepPoint[] = [];
  let rounds = 0;
  for (const size of sizes.batches) {
    const batches = sweepBatches(data, size, sizes.distinctBatches);
    if (batches.length === 0) throw new RangeError(`the data set holds fewer than ${size} images`);
    const batchOf = (round: number) => batches[round % batches.length]!;
    // Bytes one untimed transfer of the batch puts on the wire.
    const bytes = {
      a: await bytesOfSynced(context, () => strategies.a.toDevice(batches[0]!)),
      b: await bytesOfSynced(context, () => strategies.b.toDevice(batches[0]!)),
    };
    const samples = await samplePairs({
      warmupPairs: sizes.warmupPairs,
      pairs: sizes.pairs,
      runA: (round) => timeSynced(context, () => strategies.a.toDevice(batchOf(round))),
      runB: async (round) => {
        const ms = await timeSynced(context, () => strategies.b.toDevice(batchOf(round)));
        progress?.update(++rounds, `batch ${size}`);
        return ms;
      },
    });
    const [, h, w, c] = batches[0]!.shape;
    points.push({ batch: size, pixelsPerBatch: size * h * w * c, samples, bytes });
  }
  return points;
}

/** Median with a 95% percentile-bootstrap CI (seeded). */
function medianCI(samples: readonly number[]): [number, number] {
  const ci = bootstrapCI(samples, median, { rng: seededRng(7), resamples: 2000 });
  return [ci.lo, ci.hi];
}

/**
 * The sweep's figures, labelled { table: 'sweep', batch, strategy, quantity }: time per batch
 * (median with CI), bytes per batch, pixels per second, and the speedup with its CI.
 */
export function sweepMetrics(points: readonly SweepPoint[], ids: { readonly a: string; readonly b: string }, boundary: string): MetricInput[] {
  return points.flatMap((p) => {
    const batch = String(p.batch);
    const what = `one [${p.batch},28,28,1] batch from uint8 pixels to a normalized float32 tensor on the device`;
    const perStrategy = (['a', 'b'] as const).flatMap((side) => {
      const strategy = ids[side];
      const times = p.samples[side];
      const t = median(times);
      const labels = (quantity: string) => ({ table: 'sweep', batch, strategy, quantity });
      return [
        {
          ...timeMetric(`sweep.b${batch}.time.${strategy}`, t, times.length, {
            detail: `median, 95% bootstrap CI of the median; ${what}; interleaved pairs with the other strategy; ${CLOCK}`,
            labels: labels('time'),
          }),
          ci: medianCI(times),
        },
        bytesMetric(`sweep.b${batch}.upload-bytes.${strategy}`, p.bytes[side].dataBytes, 'measured', {
          detail: `tensor data host->device for ${what}; counted at ${boundary}`,
          labels: labels('upload-bytes'),
        }),
        qualityMetric(
          `sweep.b${batch}.pixels-per-second.${strategy}`,
          (p.pixelsPerBatch * 1000) / t,
          {},
          {
            unit: 'pixels/s',
            detail: `${p.pixelsPerBatch} pixels / median time per batch; informational`,
            labels: labels('pixels-per-second'),
          },
        ),
      ];
    });
    return [
      ...perStrategy,
      ratioFromPairs(`sweep.b${batch}.speedup`, p.samples, {
        detail: `median over ${p.samples.a.length} interleaved pairs of time(${ids.a})/time(${ids.b}), 95% percentile-bootstrap CI; above 1: ${ids.b} is faster; ${what}; ${CLOCK}`,
        labels: { table: 'sweep', batch, quantity: 'speedup', a: ids.a, b: ids.b },
      }),
    ];
  });
}
