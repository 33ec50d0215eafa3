import { median } from '../measure/statistics.js';
import { heldDeviceBytes, type DeviceMemory } from '../measure/device-memory.js';
import { bytesMetric, exactMetric, qualityMetric, ratioFromPairs, timeMetric, type MetricInput } from '../results/metrics.js';
import { TRAINING_ARMS, type TrainingArm, type TrainingResult } from './experiment.js';

const STRATEGIES = ['cpu-normalize', 'device-normalize'] as const;
const CLOCK = 'host monotonic clock (performance.now); each step ends when its loss was read back from the device';

/** Points a training curve gets, whatever the number of steps. */
export const CURVE_POINTS = 10;

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Every step's loss of one run, all epochs in order. */
export function allLosses(result: TrainingResult, arm: TrainingArm): number[] {
  return result.epochs.flatMap((e) => e.runs[arm].losses);
}

/**
 * How much longer the epochs took fed by `arm` than the same epochs with every batch already
 * on the device: sum of epoch times / sum of resident epoch times - 1. 0: training never waited
 * for its input; 0.25: a quarter more time than compute alone.
 */
export function inputBoundFraction(result: TrainingResult, arm: TrainingArm, epochs = result.epochs): number {
  const total = (a: TrainingArm) => epochs.reduce((sum, e) => sum + e.runs[a].epochMs, 0);
  return total(arm) / total('resident') - 1;
}

/** Per epoch: mean loss, held-out accuracy, time and images per second of each run, device memory and tensors. */
export function perEpochMetrics(result: TrainingResult, data: string): MetricInput[] {
  const metrics: MetricInput[] = [];
  const steps = `${result.stepsPerEpoch} steps of batch ${result.plan.batchSize}`;
  for (const e of result.epochs) {
    const id = (rest: string) => `training.epoch-${e.epoch}.${rest}`;
    const labels = (quantity: string, strategy?: string) => ({ table: 'training', epoch: String(e.epoch), quantity, ...(strategy ? { strategy } : {}) });
    for (const arm of STRATEGIES) {
      metrics.push(
        qualityMetric(
          id(`loss.${arm}`),
          mean(e.runs[arm].losses),
          {},
          {
            detail: `mean training cross-entropy over epoch ${e.epoch}'s ${steps}, fed by ${arm}; ${data}`,
            labels: labels('loss', arm),
          },
        ),
        qualityMetric(
          id(`input-bound-fraction.${arm}`),
          inputBoundFraction(result, arm, [e]),
          {},
          {
            detail: `epoch ${e.epoch}: time fed by ${arm} (double-buffered) / time with every batch already on the device - 1; one epoch each, informational`,
            labels: labels('input-bound-fraction', arm),
          },
        ),
      );
    }
    for (const arm of TRAINING_ARMS) {
      const run = e.runs[arm];
      const how = arm === 'resident' ? 'every batch already on the device before the clock started' : `fed by ${arm}, next batch uploaded while the step runs`;
      metrics.push(
        timeMetric(id(`time.${arm}`), run.epochMs, run.stepMs.length, {
          detail: `epoch ${e.epoch} (${steps}): the sum of this run's step times, ${how}; the three runs' steps interleaved one by one in rotating order; ${CLOCK}`,
          labels: labels('time', arm),
        }),
        qualityMetric(
          id(`images-per-second.${arm}`),
          (1000 * run.images) / run.epochMs,
          {},
          {
            unit: 'images/s',
            detail: `training images per second over epoch ${e.epoch}, ${how}; informational`,
            labels: labels('images-per-second', arm),
          },
        ),
      );
    }
    metrics.push(
      qualityMetric(
        id('held-out-accuracy'),
        e.accuracy.accuracy,
        {},
        {
          detail: `${e.accuracy.correct}/${e.accuracy.count} held-out images classified right after epoch ${e.epoch} (device-normalize model; the cpu-normalize model's weights differ by at most ${e.maxWeightDiff}); ${data}`,
          labels: labels('held-out-accuracy'),
        },
      ),
      exactMetric(id('tensors'), e.memory.tensors, 'tensors', 'measured', {
        detail: `tf.memory().numTensors after epoch ${e.epoch} (three models with their Adam state, no inputs held)`,
        labels: labels('tensors'),
      }),
    );
    if (e.memory.bytesInUse !== null) {
      metrics.push(
        bytesMetric(id('device-bytes-in-use'), e.memory.bytesInUse - result.inUseAtStart, 'measured', {
          detail: `tf.memory().numBytesInGPU after epoch ${e.epoch} minus the ${result.inUseAtStart} B in use before the experiment: device buffers held by its live tensors`,
          labels: labels('device-bytes-in-use'),
        }),
      );
    }
  }
  return metrics;
}

/**
 * Device memory flat across epochs, as a bound: tfjs's webgpu pool keeps every freed buffer for
 * reuse by (size, usage), so the first epoch may grow it (new sizes: its batches, the held-out
 * evaluation, the resident copies) and no later epoch may, as each reuses the same sizes. Bound
 * per epoch: at most the bytes held after epoch 1. Null when the backend has no device pool.
 */
export function flatMemoryMetrics(result: TrainingResult): MetricInput[] {
  // Bytes the experiment holds: what other code held before it started is not its doing.
  const held = (m: DeviceMemory) => (heldDeviceBytes(m) === null ? null : heldDeviceBytes(m)! - result.inUseAtStart);
  const first = result.epochs[0] ? held(result.epochs[0].memory) : null;
  if (first === null) return [];
  return result.epochs.map((e) =>
    qualityMetric(
      `training.epoch-${e.epoch}.device-bytes-held`,
      held(e.memory)!,
      { max: first },
      {
        unit: 'B',
        detail: `device bytes held after epoch ${e.epoch}: tfjs's buffers incl. its free pool (numBytesAllocatedInGPU ${e.memory.bytesAllocated}) + the harness's upload buffers (${e.memory.harnessBytes}), minus the ${result.inUseAtStart} B in use before the experiment; flat: never above the value after epoch 1 (${first}); before epoch 1: ${held(result.memoryBefore)}`,
        labels: { table: 'training', epoch: String(e.epoch), quantity: 'device-bytes-held' },
      },
    ),
  );
}

/** The training curve: mean loss over CURVE_POINTS windows of steps, per strategy. */
export function curveMetrics(result: TrainingResult): MetricInput[] {
  return STRATEGIES.flatMap((arm) => {
    const losses = allLosses(result, arm);
    const window = Math.max(1, Math.ceil(losses.length / CURVE_POINTS));
    const points: MetricInput[] = [];
    for (let start = 0; start < losses.length; start += window) {
      const end = Math.min(losses.length, start + window);
      points.push(
        qualityMetric(
          `training.curve.step-${end}.loss.${arm}`,
          mean(losses.slice(start, end)),
          {},
          {
            detail: `mean training loss over steps ${start + 1}..${end} (of ${losses.length}), fed by ${arm}`,
            labels: { table: 'training-curve', step: String(end), strategy: arm, quantity: 'loss' },
          },
        ),
      );
    }
    return points;
  });
}

/**
 * The input-bound fraction over all epochs, and per-step time ratios against the resident run
 * with a 95% bootstrap CI (step i fed by the strategy vs the same step with its batch resident,
 * run next to each other).
 */
export function inputBoundMetrics(result: TrainingResult): MetricInput[] {
  const stepMs = (arm: TrainingArm) => result.epochs.flatMap((e) => e.runs[arm].stepMs);
  const resident = stepMs('resident');
  return STRATEGIES.flatMap((arm) => [
    qualityMetric(
      `training.input-bound-fraction.${arm}`,
      inputBoundFraction(result, arm),
      {},
      {
        detail: `all ${result.epochs.length} epochs: time fed by ${arm} (double-buffered) / time with every batch already on the device - 1 (0: never waits for input); median step ${median(stepMs(arm)).toPrecision(3)} ms vs ${median(resident).toPrecision(3)} ms resident; informational`,
        labels: { table: 'training', quantity: 'input-bound-fraction', strategy: arm },
      },
    ),
    ratioFromPairs(
      `training.step-time-vs-resident.${arm}`,
      { a: stepMs(arm), b: resident },
      {
        detail: `median over ${stepMs(arm).length} steps of time(step fed by ${arm}) / time(the same step with its batch resident, run beside it), 95% percentile-bootstrap CI; above 1: the input pipeline costs time; ${CLOCK}`,
        labels: { table: 'training', quantity: 'step-time-vs-resident', a: arm, b: 'resident' },
        // A time over a time where above 1 is the pipeline's cost: smaller is better, unlike a speedup.
        direction: 'smaller',
      },
    ),
  ]);
}

/**
 * Where a training step's time goes (issue 13), per run: the input part (preparing the next
 * batch and issuing its upload, host clock inside the loop), the train part (the rest: issuing
 * the step and waiting for its loss), the whole step, and as each fed run's limit the same step
 * with its batch already on the device (the resident run beside it, measured). Medians over all
 * steps, labelled { table: 'stages', group: 'training', strategy, stage }.
 */
export function trainingStageMetrics(result: TrainingResult): MetricInput[] {
  const steps = (arm: TrainingArm, of: 'stepMs' | 'inputMs') => result.epochs.flatMap((e) => e.runs[arm][of]);
  const labels = (strategy: string, stage: string) => ({ table: 'stages', group: 'training', strategy, stage });
  const loop = `one train step of batch ${result.plan.batchSize}, median over ${steps('resident', 'stepMs').length} steps of all epochs; no syncs added to the loop`;
  return TRAINING_ARMS.flatMap((arm) => {
    const step = steps(arm, 'stepMs');
    const input = steps(arm, 'inputMs');
    const train = step.map((ms, i) => ms - input[i]!);
    const metrics = [
      timeMetric(`training.stage-ms.input.${arm}`, median(input), input.length, {
        detail: `${loop}: preparing the next batch and issuing its upload${arm === 'resident' ? ' (a resident batch: handing it over)' : ` by ${arm}`}; host clock`,
        labels: labels(arm, 'input'),
      }),
      // Computed per step from two measured figures (the step and its input part).
      {
        ...timeMetric(`training.stage-ms.train.${arm}`, median(train), train.length, {
          detail: `${loop}: computed per step as the step minus its input part (both measured), i.e. issuing the train step and waiting until its loss is read back; ${CLOCK}`,
          labels: labels(arm, 'train'),
        }),
        source: 'computed' as const,
      },
      timeMetric(`training.stage-ms.total.${arm}`, median(step), step.length, {
        detail: `${loop}: the whole step; ${CLOCK}`,
        labels: labels(arm, 'total'),
      }),
    ];
    if (arm === 'resident') return metrics;
    const resident = steps('resident', 'stepMs');
    return [
      ...metrics,
      timeMetric(`training.stage-ms.limit.${arm}`, median(resident), resident.length, {
        detail: `${loop}: the same steps with every batch already on the device (the resident run, interleaved with this one): a fed step cannot be faster; measured, ${CLOCK}`,
        labels: labels(arm, 'limit'),
      }),
    ];
  });
}
