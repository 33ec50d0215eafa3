import type { BackendContext } from '../backend/types.js';
import { computeKernelMs, syncFloorMs, timeStages, type StageSample } from '../measure/stages.js';
import { median } from '../measure/statistics.js';
import { CLOCK, timeSynced } from '../measure/timer.js';
import { timeMetric, type MetricInput } from '../results/metrics.js';
import { ARTICLE_NORMALIZATION } from '../transfer/normalization.js';
import { devicePackedNormalize, hostChannelNormalize, stagedToDevice, type StagedTransfer } from '../transfer/strategies/staged-transfer.js';
import { kernelBandwidthMetrics, limitMetrics, measureDeviceBandwidth, measureRunReferences, referenceMetrics, type DeviceCost } from './device-limit.js';

const STAGES = ['host', 'upload', 'compute'] as const;

/** Batches whose kernels are timed by timestamp queries (median): one is noisy at ~0.1 ms. */
const KERNEL_SAMPLES = 5;

/** One input of a stage breakdown: raw pixels and their shape. */
export interface StageInput {
  readonly pixels: Uint8Array;
  readonly shape: readonly number[];
}

export interface StageOptions {
  /**
   * Also time each strategy whole (all stages, synced only at the end) in the same rounds, as
   * the `total` stage; leave it off where the scenario records its own pipelined totals.
   */
  readonly withTotal?: boolean;
  /** Untimed rounds over the first inputs before timing (shaders compiled, buffers pooled); default 1. */
  readonly warmupRounds?: number;
}

/** The article's two strategies on MNIST-shaped batches, staged: (x - 127.5) / 127.5 on the host as float32, or bytes + the packed decode kernel. */
export function articleStagedStrategies(context: BackendContext): [StagedTransfer, StagedTransfer] {
  return [
    hostChannelNormalize(context, { mean: [ARTICLE_NORMALIZATION.mean], std: [ARTICLE_NORMALIZATION.std] }),
    devicePackedNormalize(context, ARTICLE_NORMALIZATION),
  ];
}

/** Bytes a strategy uploads, and bytes its device pass reads + writes (by default wire in, float32 out; none when it sends float32). */
export function deviceCost(t: StagedTransfer, elements: number): DeviceCost {
  const pass = t.passBytesPerElement ?? (t.wireBytesPerElement < 4 ? t.wireBytesPerElement + 4 : 0);
  return { id: t.id, uploadBytes: elements * t.wireBytesPerElement, passBytes: elements * pass };
}

/**
 * Where the time of a batch goes, per strategy: the host, upload and compute stage medians over
 * `inputs` (each synced; rounds alternate the order), the sync floor, the compute stage's GPU
 * time where the adapter has timestamps, each strategy's limit on this device and its kernel's
 * throughput against the device's copies. Every figure is labelled { table: 'stages', group:
 * `group`, strategy, stage } and its id starts with `group`.
 */
export async function measureStages(
  context: BackendContext,
  group: string,
  strategies: readonly StagedTransfer[],
  inputs: readonly StageInput[],
  what: string,
  options: StageOptions = {},
): Promise<MetricInput[]> {
  // The host copy (on a GPU: 256 MiB on every CPU, once per process) before the warm-up, so
  // that its threads and garbage never fall between this or a later group's timed rounds.
  const machine = await measureRunReferences(context);
  for (const input of inputs.slice(0, options.warmupRounds ?? 1)) {
    for (const t of strategies) await timeStages(context, t, input.pixels, input.shape);
  }
  const samples = strategies.map(() => [] as StageSample[]);
  const totals = strategies.map(() => [] as number[]);
  for (const [round, input] of inputs.entries()) {
    const order = strategies.map((_, k) => (round % 2 === 0 ? k : strategies.length - 1 - k));
    for (const k of order) {
      const t = strategies[k]!;
      samples[k]!.push(await timeStages(context, t, input.pixels, input.shape));
      if (options.withTotal) totals[k]!.push(await timeSynced(context, () => stagedToDevice(t, input.pixels, input.shape)));
    }
  }
  const floor = await syncFloorMs(context);
  const bandwidth = await measureDeviceBandwidth(context);
  const elements = inputs[0]!.pixels.length;
  const labels = (strategy: string, stage: string) => ({ table: 'stages', group, strategy, stage });
  const metrics: MetricInput[] = [
    timeMetric(`${group}.stage-ms.sync-floor`, floor, 50, {
      detail: 'a submit and wait with nothing queued on the same device: the least any synced figure here contains; median',
      labels: labels('both', 'sync-floor'),
      // The device's own floor, not the code's: shown, never judged or exported as a benchmark.
      direction: 'info',
    }),
  ];
  if (bandwidth) {
    metrics.push(
      ...limitMetrics(
        group,
        bandwidth,
        floor,
        strategies.map((t) => deviceCost(t, elements)),
      ),
    );
    // On a GPU, the references the limit is read against (issue 35): the API's rate and the host copy.
    if (machine) metrics.push(...referenceMetrics(group, bandwidth, context.name, machine));
  }
  for (const [k, t] of strategies.entries()) {
    for (const stage of STAGES) {
      const values = samples[k]!.map((s) => s[`${stage}Ms`]);
      const how = stage === 'host' ? 'host clock, no device work' : `synced after the stage (includes one sync floor); ${CLOCK}`;
      metrics.push(
        timeMetric(`${group}.stage-ms.${stage}.${t.id}`, median(values), values.length, {
          detail: `median ${stage} stage of ${t.id}, ${what}; ${how}`,
          labels: labels(t.id, stage),
        }),
      );
    }
    if (options.withTotal) {
      metrics.push(
        timeMetric(`${group}.stage-ms.total.${t.id}`, median(totals[k]!), totals[k]!.length, {
          detail: `median of ${t.id} whole (host, upload and compute with no sync in between), ${what}; in the same rounds as the stages; ${CLOCK}`,
          labels: labels(t.id, 'total'),
        }),
      );
    }
    const kernels: number[] = [];
    for (const input of inputs.slice(0, KERNEL_SAMPLES)) {
      const ms = await computeKernelMs(context, t, input.pixels, input.shape);
      if (ms !== null) kernels.push(ms);
    }
    if (kernels.length === 0) continue;
    const kernelMs = median(kernels);
    metrics.push(
      timeMetric(`${group}.stage-ms.kernels.${t.id}`, kernelMs, kernels.length, {
        detail: `GPU timestamp-query time of the compute stage's kernels (tf.time kernelMs), median over ${kernels.length} batches`,
        labels: labels(t.id, 'kernels'),
      }),
    );
    const cost = deviceCost(t, elements);
    if (bandwidth && cost.passBytes > 0 && kernelMs > 0) metrics.push(...kernelBandwidthMetrics(group, bandwidth, cost, kernelMs));
  }
  return metrics;
}
