import type * as tf from '@tensorflow/tfjs';
import type { Batch } from '../data/loader.js';
import { trainStep } from '../models/mnist-cnn.js';
import type { TransferStrategy } from '../transfer/strategies.js';

/** A model and its optimizer, trained together. */
export interface Trainer {
  readonly model: tf.Sequential;
  readonly optimizer: tf.Optimizer;
}

/** One step's input, on the device (or on its way), with its labels. */
export interface StepInput {
  readonly x: tf.Tensor4D;
  readonly labels: Int32Array;
  /** Tensors this input keeps alive until released (1 for a fresh upload, 0 for a resident batch). */
  readonly heldTensors: number;
  /** Frees what the input holds once its step is done. */
  release(): void;
}

/** Where a loop's inputs come from: the next one, or null at the end of the epoch. */
export type InputSource = () => StepInput | null;

/** What one epoch of steps did. */
export interface EpochRun {
  /** Cross-entropy of each step, read back from the device. */
  readonly losses: number[];
  /** Each step's wall time: from issuing it until its loss was read, the next input's upload included. */
  readonly stepMs: number[];
  /** The epoch's wall time, first input's upload included (host monotonic clock). */
  readonly epochMs: number;
  readonly images: number;
  /**
   * Tensors each step left alive beyond those alive after the previous step (the epoch's start
   * for the first), inputs still held excluded: a model's first step creates its optimizer's
   * slots (Adam: two per trainable weight); any other step, 0 unless it leaks.
   */
  readonly newTensorsPerStep: number[];
}

/** Inputs uploaded by `strategy` from the batches, one per call (the upload is issued inside toDevice). */
export function uploadedInputs(batches: Iterator<Batch>, strategy: TransferStrategy): InputSource {
  return () => {
    const next = batches.next();
    if (next.done) return null;
    const x = strategy.toDevice(next.value);
    return { x, labels: next.value.labels, heldTensors: 1, release: () => x.dispose() };
  };
}

/** Inputs already resident on the device, handed out in order; the caller disposes them after the epoch. */
export function residentInputs(inputs: ReadonlyArray<{ x: tf.Tensor4D; labels: Int32Array }>): InputSource {
  let i = 0;
  return () => {
    const input = inputs[i++];
    return input ? { ...input, heldTensors: 0, release: () => {} } : null;
  };
}

/**
 * One epoch of train steps, double-buffered as a real training loop's input pipeline is: while
 * step i runs on the device, the host assembles batch i+1 and issues its upload (and, for
 * device-normalize, its decode), so transfer and compute overlap as far as the device lets
 * them. Step i's loss is then read back (which waits for the device), as a loop logging
 * `loss.item()` does. Asynchronous on webgpu: tfjs only records and submits the step's
 * dispatches, so the next upload is issued before the step finishes.
 */
export async function runEpoch(trainer: Trainer, next: InputSource, tensorCount: () => number, onStep?: (loss: number) => void): Promise<EpochRun> {
  const losses: number[] = [];
  const stepMs: number[] = [];
  const newTensorsPerStep: number[] = [];
  let images = 0;
  let alive = tensorCount();
  const start = performance.now();
  let current = next();
  let stepStart = start;
  while (current) {
    const loss = trainStep(trainer.model, trainer.optimizer, current.x, current.labels);
    const upcoming = next();
    const value = (await loss.data())[0]!;
    loss.dispose();
    current.release();
    images += current.labels.length;
    const now = performance.now();
    stepMs.push(now - stepStart);
    stepStart = now;
    losses.push(value);
    const aliveNow = tensorCount() - (upcoming?.heldTensors ?? 0);
    newTensorsPerStep.push(aliveNow - alive);
    alive = aliveNow;
    onStep?.(value);
    current = upcoming;
  }
  return { losses, stepMs, epochMs: performance.now() - start, images, newTensorsPerStep };
}
