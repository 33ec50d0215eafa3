import type { BackendContext } from '../backend/types.js';
import { bytesOfSynced } from '../backend/synced-transfers.js';
import type { TimedBatch } from '../data/loader.js';
import { DATASET_SOURCES } from '../data/sources.js';
import { median } from '../measure/statistics.js';
import { CLOCK, timeSynced } from '../measure/timer.js';
import { bytesMetric, ratioFromPairs, timeMetric, type MetricInput } from '../results/metrics.js';
import { it } from 'vitest';
import { IMAGENET_NORMALIZATION } from '../transfer/kernels/crop-mirror-normalize.js';
import { deviceChannelNormalize, hostChannelNormalize, stagedToDevice, type StagedTransfer } from '../transfer/strategies/staged-transfer.js';
import { recordMetrics } from './record.js';
import { useBackend, useSourceSizes } from './session.js';
import { measureStages } from './stage-breakdown.js';

/** What an image or video scenario hands to the shared measurement. */
export interface MediaCase<Targets> {
  /** Metric id prefix: the data source's name ('coco', 'kinetics'). */
  readonly prefix: string;
  /** The batch in words, e.g. '16 COCO images letterboxed to 128x128'. */
  readonly what: string;
  /** Endless batches (DatasetLoader.stream), decoded and collated per round. */
  readonly batches: AsyncIterator<TimedBatch<Targets>>;
  readonly strategies: readonly [StagedTransfer, StagedTransfer];
  readonly rounds: number;
  readonly warmupRounds: number;
}

/**
 * Host-to-device pixel bytes of one transfer of `input` by each strategy (synced, output
 * disposed), counted at the backend boundary: `<prefix>.upload-bytes.<strategy>`, measured.
 * `group` labels them for a report that groups by it (the shape questions).
 */
export async function measuredUploadBytes(
  context: BackendContext,
  prefix: string,
  strategies: readonly StagedTransfer[],
  input: { readonly pixels: Uint8Array; readonly shape: readonly number[] },
  what: string,
  group?: string,
): Promise<MetricInput[]> {
  const metrics: MetricInput[] = [];
  for (const t of strategies) {
    const bytes = await bytesOfSynced(context, () => stagedToDevice(t, input.pixels, input.shape));
    metrics.push(
      bytesMetric(`${prefix}.upload-bytes.${t.id}`, bytes.dataBytes, 'measured', {
        detail: `pixel data host->device for ${what}; counted at ${context.transfers.boundary}`,
        labels: group ? { group, strategy: t.id } : { strategy: t.id },
      }),
    );
  }
  return metrics;
}

/** Interleaved order for round r: AB on even rounds, BA on odd ones. */
const inOrder = <T>(pair: readonly [T, T], round: number): [T, T] => (round % 2 === 0 ? [pair[0], pair[1]] : [pair[1], pair[0]]);

/**
 * Sections 7 and 8, measured: per round one new batch is decoded and collated (timed, the same
 * for both strategies), then both strategies move it to the device in interleaved order
 * (synced), then each is timed stage by stage (host, upload, compute; synced after each).
 * Returns the bytes, the speedups (transfer alone, and the whole batch with decode and collate)
 * with CIs, and the stage medians, each labelled { table: 'stages', strategy, stage }.
 */
export async function measureMediaTransfer<Targets>(context: BackendContext, c: MediaCase<Targets>): Promise<MetricInput[]> {
  const [a, b] = c.strategies;
  const metrics: MetricInput[] = [];
  const next = async (): Promise<TimedBatch<Targets>> => {
    const r = await c.batches.next();
    if (r.done) throw new Error(`${c.prefix}: the batch stream ended`);
    return r.value;
  };

  // Bytes, exact: one transfer per strategy, counted at the backend boundary.
  const first = await next();
  metrics.push(...(await measuredUploadBytes(context, c.prefix, c.strategies, first.batch, c.what)));

  const decode: number[] = [];
  const collate: number[] = [];
  const totals: [number[], number[]] = [[], []];
  const kept: Array<{ pixels: Uint8Array; shape: readonly number[] }> = [];
  for (let round = 0; round < c.warmupRounds + c.rounds; round++) {
    const { batch, loadMs, collateMs } = await next();
    const times = new Map<StagedTransfer, number>();
    for (const t of inOrder(c.strategies, round)) times.set(t, await timeSynced(context, () => stagedToDevice(t, batch.pixels, batch.shape)));
    if (round < c.warmupRounds) continue;
    decode.push(loadMs);
    collate.push(collateMs);
    // A few of the batches are timed again stage by stage below (memory: keep at most 8).
    if (kept.length < 8) kept.push({ pixels: batch.pixels, shape: batch.shape });
    for (const [k, t] of c.strategies.entries()) totals[k]!.push(times.get(t)!);
  }

  const n = c.rounds;
  const pairs = { a: totals[0], b: totals[1] };
  const prepared = decode.map((d, i) => d + collate[i]!);
  metrics.push(
    ratioFromPairs(`${c.prefix}.speedup.transfer`, pairs, {
      detail: `median over ${n} interleaved pairs of time(${a.id})/time(${b.id}), 95% percentile-bootstrap CI; ${c.what}, from collated uint8 pixels to the normalized float32 model input on the device; ${CLOCK}`,
      labels: { a: a.id, b: b.id, part: 'transfer' },
    }),
    ratioFromPairs(
      `${c.prefix}.speedup.batch`,
      { a: pairs.a.map((t, i) => prepared[i]! + t), b: pairs.b.map((t, i) => prepared[i]! + t) },
      {
        detail: `the whole batch: (decode + collate + transfer) of ${a.id} over the same for ${b.id}, per round; decode and collate are measured once per round and are the same work for both (computed from measured stages); median, 95% bootstrap CI; ${CLOCK}`,
        labels: { a: a.id, b: b.id, part: 'batch' },
      },
    ),
    timeMetric(`${c.prefix}.stage-ms.decode`, median(decode), n, {
      detail: `reading and decoding the files of one batch (${c.what}); host clock`,
      labels: { table: 'stages', group: c.prefix, strategy: 'both', stage: 'decode' },
    }),
    timeMetric(`${c.prefix}.stage-ms.collate`, median(collate), n, {
      detail: `resizing/letterboxing and copying into one contiguous uint8 buffer; host clock`,
      labels: { table: 'stages', group: c.prefix, strategy: 'both', stage: 'collate' },
    }),
  );
  for (const [k, t] of c.strategies.entries()) {
    metrics.push(
      timeMetric(`${c.prefix}.time.${t.id}`, median(totals[k]!), n, {
        detail: `median total, stages not synced in between (what a pipeline does); ${c.what}; ${CLOCK}`,
        labels: { table: 'stages', group: c.prefix, strategy: t.id, stage: 'total' },
      }),
    );
  }
  metrics.push(...(await measureStages(context, c.prefix, c.strategies, kept, c.what)));
  return metrics;
}

/**
 * The one test of an image or video timed scenario (sections 7 and 8): batches from `source`
 * moved both ways with ImageNet normalization (host + float32, or bytes + the fused kernel),
 * measured by measureMediaTransfer and recorded.
 */
export function itTimesMediaPipeline(
  name: string,
  prefix: string,
  source: () => Promise<{ loader: { stream(): AsyncIterator<TimedBatch<unknown>> }; what: string }>,
): void {
  it(name, async ({ task }) => {
    const context = await useBackend();
    const { loader, what } = await source();
    // The rounds of the registered data source of that name (src/data/<name>/source.ts).
    const data = DATASET_SOURCES.find((s) => s.name === prefix);
    if (!data) throw new Error(`${prefix}: no registered data source of that name (src/data/sources.ts)`);
    const { rounds, warmupRounds } = useSourceSizes<{ rounds: number; warmupRounds: number }>(data);
    const metrics = await measureMediaTransfer(context, {
      prefix,
      what,
      batches: loader.stream(),
      strategies: [hostChannelNormalize(context, IMAGENET_NORMALIZATION), deviceChannelNormalize(context, IMAGENET_NORMALIZATION)],
      rounds,
      warmupRounds,
    });
    await recordMetrics(task, ...metrics);
  });
}
