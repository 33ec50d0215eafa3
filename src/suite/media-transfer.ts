import type { BackendContext } from '../backend/types.js';
import { countTransfers } from '../backend/transfer-counter.js';
import type { TimedBatch } from '../data/loader.js';
import { computeKernelMs, syncFloorMs, timeStages, type StageSample } from '../measure/stages.js';
import { median } from '../measure/statistics.js';
import { CLOCK, timeSynced } from '../measure/timer.js';
import { bytesMetric, ratioFromPairs, timeMetric, type MetricInput } from '../results/metrics.js';
import { stagedToDevice, type StagedTransfer } from '../transfer/staged-transfer.js';

/** What an image or video scenario hands to the shared measurement. */
export interface MediaCase<Targets> {
  /** Metric id prefix: 'coco' or 'kinetics'. */
  readonly prefix: string;
  /** The batch in words, e.g. '16 COCO images letterboxed to 128x128'. */
  readonly what: string;
  /** Endless batches (DatasetLoader.stream), decoded and collated per round. */
  readonly batches: AsyncIterator<TimedBatch<Targets>>;
  readonly strategies: readonly [StagedTransfer, StagedTransfer];
  readonly rounds: number;
  readonly warmupRounds: number;
}

const STAGES = ['host', 'upload', 'compute'] as const;

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
  for (const t of c.strategies) {
    const { result, bytes } = await countTransfers(context.transfers, async () => {
      const out = stagedToDevice(t, first.batch.pixels, first.batch.shape);
      await context.sync(out);
      return out;
    });
    result.dispose();
    metrics.push(bytesMetric(`${c.prefix}.upload-bytes.${t.id}`, bytes.dataBytes, 'measured', { detail: `pixel data host->device for ${c.what}; counted at ${context.transfers.boundary}`, labels: { strategy: t.id } }));
  }

  const decode: number[] = [];
  const collate: number[] = [];
  const totals: [number[], number[]] = [[], []];
  const stages: [StageSample[], StageSample[]] = [[], []];
  for (let round = 0; round < c.warmupRounds + c.rounds; round++) {
    const { batch, loadMs, collateMs } = await next();
    const times = new Map<StagedTransfer, number>();
    for (const t of inOrder(c.strategies, round)) times.set(t, await timeSynced(context, () => stagedToDevice(t, batch.pixels, batch.shape)));
    const staged = new Map<StagedTransfer, StageSample>();
    for (const t of inOrder(c.strategies, round + 1)) staged.set(t, await timeStages(context, t, batch.pixels, batch.shape));
    if (round < c.warmupRounds) continue;
    decode.push(loadMs);
    collate.push(collateMs);
    c.strategies.forEach((t, k) => {
      totals[k]!.push(times.get(t)!);
      stages[k]!.push(staged.get(t)!);
    });
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
    timeMetric(`${c.prefix}.stage-ms.decode`, median(decode), n, { detail: `reading and decoding the files of one batch (${c.what}); host clock`, labels: { table: 'stages', strategy: 'both', stage: 'decode' } }),
    timeMetric(`${c.prefix}.stage-ms.collate`, median(collate), n, { detail: `resizing/letterboxing and copying into one contiguous uint8 buffer; host clock`, labels: { table: 'stages', strategy: 'both', stage: 'collate' } }),
  );
  const floor = await syncFloorMs(context);
  metrics.push(timeMetric(`${c.prefix}.stage-ms.sync-floor`, floor, 50, { detail: 'a submit and wait with nothing queued on the same device: the least any synced figure here contains; median', labels: { table: 'stages', strategy: 'both', stage: 'sync-floor' } }));
  for (const [k, t] of c.strategies.entries()) {
    const labels = (stage: string) => ({ table: 'stages', strategy: t.id, stage });
    metrics.push(timeMetric(`${c.prefix}.time.${t.id}`, median(totals[k]!), n, { detail: `median total, stages not synced in between (what a pipeline does); ${c.what}; ${CLOCK}`, labels: labels('total') }));
    for (const stage of STAGES) {
      const values = stages[k]!.map((s) => s[`${stage}Ms`]);
      const how = stage === 'host' ? 'host clock, no device work' : `synced after the stage (includes one sync floor); ${CLOCK}`;
      metrics.push(timeMetric(`${c.prefix}.stage-ms.${stage}.${t.id}`, median(values), n, { detail: `median ${stage} stage of ${t.id}; ${how}`, labels: labels(stage) }));
    }
    const kernels = await computeKernelMs(context, t, first.batch.pixels, first.batch.shape);
    if (kernels !== null) {
      metrics.push(timeMetric(`${c.prefix}.stage-ms.kernels.${t.id}`, kernels, 1, { detail: `GPU timestamp-query time of the compute stage's kernels (tf.time kernelMs), one batch`, labels: labels('kernels') }));
    }
  }
  return metrics;
}

