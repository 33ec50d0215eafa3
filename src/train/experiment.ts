import * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../backend/types.js';
import type { ImageDataset } from '../data/dataset.js';
import { BatchLoader, type Batch } from '../data/loader.js';
import { deviceMemory, releaseBufferPool, type DeviceMemory, type PoolRelease } from '../measure/device-memory.js';
import { trainStep } from '../models/mnist-cnn.js';
import { createArticleOptimizer, createTwoConvCnn } from '../models/two-conv-cnn.js';
import type { Progress } from '../measure/progress.js';
import { cpuNormalize, deviceNormalize, type StrategyId, type TransferStrategy } from '../transfer/strategies/strategies.js';
import { heldOutAccuracy, type Accuracy } from './evaluate.js';
import { residentInputs, runInterleavedEpoch, uploadedInputs, type EpochRun, type Trainer } from './loop.js';

/**
 * The three training runs of section 10: the two input strategies, and a reference whose every
 * batch is already on the device before its epoch's clock starts (no input pipeline at all).
 */
export const TRAINING_ARMS = ['cpu-normalize', 'device-normalize', 'resident'] as const;
export type TrainingArm = (typeof TRAINING_ARMS)[number];

export interface TrainingPlan {
  readonly epochs: number;
  /** The first N batches of each epoch; null: all. */
  readonly stepsPerEpoch: number | null;
  readonly batchSize: number;
  readonly shuffleSeed: number;
  readonly modelSeed: number;
  readonly evalBatch: number;
}

export interface EpochResult {
  /** 1-based. */
  readonly epoch: number;
  readonly runs: Readonly<Record<TrainingArm, EpochRun>>;
  /** The device-normalize model on the held-out images after this epoch. */
  readonly accuracy: Accuracy;
  /** Largest |weight difference| between the cpu-normalize and device-normalize models after this epoch. */
  readonly maxWeightDiff: number;
  /** Device memory after the epoch (all three runs and the evaluation), every input released. */
  readonly memory: DeviceMemory;
}

/** tf.profile of one more train step, input upload included. */
export interface StepFootprint {
  /** Largest bytes of live tensors at any moment of the step (engine accounting). */
  readonly peakBytes: number;
  readonly newTensors: number;
  readonly newBytes: number;
}

export interface TrainingResult {
  readonly plan: TrainingPlan;
  readonly stepsPerEpoch: number;
  readonly epochs: readonly EpochResult[];
  /** Device memory after the warm-up, before epoch 1. */
  readonly memoryBefore: DeviceMemory;
  /**
   * Device bytes in use before the experiment, by buffers it does not own (e.g. the 16-byte
   * timestamp buffer tfjs keeps once any tf.profile ran): subtracted from its memory figures,
   * so they do not depend on which scenarios ran before.
   */
  readonly inUseAtStart: number;
  readonly stepFootprint: Readonly<Record<StrategyId, StepFootprint>>;
  /** Tensors left alive by the whole experiment once its models were disposed. */
  readonly leakedTensors: number;
  /** Releasing the device buffer pool once the models were disposed (null off webgpu). */
  readonly poolRelease: PoolRelease | null;
}

const STRATEGY_ARMS = ['cpu-normalize', 'device-normalize'] as const;

function* take<T>(items: Iterator<T>, count: number | null): Generator<T> {
  for (let i = 0; count === null || i < count; i++) {
    const next = items.next();
    if (next.done) return;
    yield next.value;
  }
}

function newTrainer(seed: number): Trainer {
  return { model: createTwoConvCnn(seed), optimizer: createArticleOptimizer() };
}

function disposeTrainer(t: Trainer): void {
  t.optimizer.dispose();
  t.model.dispose();
}

/** Largest |a - b| over all weights of two models of the same architecture. */
async function maxWeightDiff(a: tf.LayersModel, b: tf.LayersModel): Promise<number> {
  const wa = a.getWeights();
  const wb = b.getWeights();
  let max = 0;
  for (let i = 0; i < wa.length; i++) {
    const [va, vb] = await Promise.all([wa[i]!.data(), wb[i]!.data()]);
    for (let k = 0; k < va.length; k++) max = Math.max(max, Math.abs(va[k]! - vb[k]!));
  }
  return max;
}

/** Compiles every shader the runs will use (both input paths, a train step, evaluation) on a throwaway model, so no run pays for it. */
async function warmUp(batch: Batch, strategies: Record<StrategyId, TransferStrategy>, evalBatch: Batch, seed: number): Promise<void> {
  const scratch = newTrainer(seed);
  try {
    for (const strategy of Object.values(strategies)) {
      const x = strategy.toDevice(batch);
      const loss = trainStep(scratch.model, scratch.optimizer, x, batch.labels);
      await loss.data();
      loss.dispose();
      x.dispose();
    }
    const x = strategies['device-normalize'].toDevice(evalBatch);
    const out = tf.tidy(() => (scratch.model.predict(x) as tf.Tensor).argMax(-1));
    await out.data();
    out.dispose();
    x.dispose();
  } finally {
    disposeTrainer(scratch);
  }
}

/** Uploads the epoch's batches (device-normalize) and waits until they are on the device. */
async function uploadResident(
  context: BackendContext,
  batches: Iterable<Batch>,
  strategy: TransferStrategy,
): Promise<Array<{ x: tf.Tensor4D; labels: Int32Array }>> {
  const inputs = [...batches].map((b) => ({ x: strategy.toDevice(b), labels: b.labels }));
  const last = inputs.at(-1);
  if (last) await context.sync(last.x);
  return inputs;
}

/** tf.profile of one train step with the input upload, on the given trainer. */
async function profileStep(trainer: Trainer, strategy: TransferStrategy, batch: Batch): Promise<StepFootprint> {
  const info = await tf.profile(() => {
    const x = strategy.toDevice(batch);
    const loss = trainStep(trainer.model, trainer.optimizer, x, batch.labels);
    x.dispose();
    return loss;
  });
  const loss = info.result as tf.Tensor;
  await loss.data();
  loss.dispose();
  return { peakBytes: info.peakBytes, newTensors: info.newTensors - 1, newBytes: info.newBytes - loss.size * 4 };
}

/**
 * Article section 10: trains the article's second network three times from the same initial
 * weights on the same shuffled batches: fed by cpu-normalize, by device-normalize (both
 * double-buffered), and from batches already resident on the device. The runs alternate step
 * by step (rotating which goes first), so drift and background load hit all three alike and
 * their step times pair up. After each epoch the device-normalize model is evaluated on the
 * held-out images.
 */
export async function runTrainingExperiment(
  context: BackendContext,
  data: { readonly train: ImageDataset; readonly heldOut: ImageDataset },
  plan: TrainingPlan,
  makeProgress?: (totalSteps: number) => Progress,
): Promise<TrainingResult> {
  const tensorsAtStart = tf.memory().numTensors;
  // From an empty pool, so the memory figures do not depend on the scenarios that ran before.
  await releaseBufferPool();
  const inUseAtStart = deviceMemory().bytesInUse ?? 0;
  const strategies: Record<StrategyId, TransferStrategy> = { 'cpu-normalize': cpuNormalize(context), 'device-normalize': deviceNormalize() };
  const loader = new BatchLoader(data.train, { batchSize: plan.batchSize, shuffle: true, seed: plan.shuffleSeed, dropLast: false });
  const stepsPerEpoch = plan.stepsPerEpoch === null ? loader.batchesPerEpoch : Math.min(plan.stepsPerEpoch, loader.batchesPerEpoch);
  const firstBatch = loader.epoch(0).next().value!;
  const evalBatch = new BatchLoader(data.heldOut, { batchSize: plan.evalBatch, shuffle: false, seed: 0, dropLast: false }).epoch(0).next().value!;
  await warmUp(firstBatch, strategies, evalBatch, plan.modelSeed);
  const progress = makeProgress?.(plan.epochs * stepsPerEpoch * TRAINING_ARMS.length);

  const trainers = Object.fromEntries(TRAINING_ARMS.map((arm) => [arm, newTrainer(plan.modelSeed)])) as Record<TrainingArm, Trainer>;
  const memoryBefore = deviceMemory();
  const epochs: EpochResult[] = [];
  let done = 0;
  try {
    for (let e = 0; e < plan.epochs; e++) {
      const batches = () => take(loader.epoch(e), stepsPerEpoch);
      // The reference's batches go to the device before the epoch, outside every clock.
      const resident = await uploadResident(context, batches(), strategies['device-normalize']);
      const lanes = TRAINING_ARMS.map((arm) => ({
        trainer: trainers[arm],
        next: arm === 'resident' ? residentInputs(resident) : uploadedInputs(batches(), strategies[arm]),
      }));
      let results: EpochRun[];
      try {
        results = await runInterleavedEpoch(
          lanes,
          e,
          () => tf.memory().numTensors,
          (lane, loss) => progress?.update(++done, `epoch ${e + 1}/${plan.epochs}, ${TRAINING_ARMS[lane]}, loss ${loss.toFixed(3)}`),
        );
      } finally {
        for (const input of resident) input.x.dispose();
      }
      const runs = Object.fromEntries(TRAINING_ARMS.map((arm, k) => [arm, results[k]!])) as Record<TrainingArm, EpochRun>;
      const accuracy = await heldOutAccuracy(trainers['device-normalize'].model, data.heldOut, strategies['device-normalize'], plan.evalBatch);
      const diff = await maxWeightDiff(trainers['cpu-normalize'].model, trainers['device-normalize'].model);
      epochs.push({ epoch: e + 1, runs, accuracy, maxWeightDiff: diff, memory: deviceMemory() });
      progress?.update(done, `epoch ${e + 1}/${plan.epochs} done, held-out accuracy ${(100 * accuracy.accuracy).toFixed(1)}%`);
    }
    const stepFootprint = {} as Record<StrategyId, StepFootprint>;
    for (const arm of STRATEGY_ARMS) stepFootprint[arm] = await profileStep(trainers[arm], strategies[arm], firstBatch);
    progress?.finish();
    for (const arm of TRAINING_ARMS) disposeTrainer(trainers[arm]);
    const leakedTensors = tf.memory().numTensors - tensorsAtStart;
    return { plan, stepsPerEpoch, epochs, memoryBefore, inUseAtStart, stepFootprint, leakedTensors, poolRelease: await releaseBufferPool() };
  } catch (error) {
    for (const arm of TRAINING_ARMS) disposeTrainer(trainers[arm]);
    throw error;
  }
}

/** Per-step loss differences between two runs over all epochs: largest absolute and relative. */
export function lossAgreement(result: TrainingResult, a: TrainingArm, b: TrainingArm): { maxAbs: number; maxRel: number; steps: number } {
  let maxAbs = 0;
  let maxRel = 0;
  let steps = 0;
  for (const e of result.epochs) {
    const la = e.runs[a].losses;
    const lb = e.runs[b].losses;
    if (la.length !== lb.length) throw new Error(`epoch ${e.epoch}: ${a} ran ${la.length} steps, ${b} ${lb.length}`);
    la.forEach((x, i) => {
      const d = Math.abs(x - lb[i]!);
      maxAbs = Math.max(maxAbs, d);
      maxRel = Math.max(maxRel, d / Math.max(Math.abs(x), Math.abs(lb[i]!), Number.MIN_VALUE));
      steps++;
    });
  }
  return { maxAbs, maxRel, steps };
}
