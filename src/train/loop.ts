import type * as tf from '@tensorflow/tfjs';
import type { Batch } from '../data/loader.js';
import { trainStep } from '../models/mnist-cnn.js';
import type { TransferStrategy } from '../transfer/strategies/strategies.js';

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

/** What one epoch of steps did for one run. */
export interface EpochRun {
  /** Cross-entropy of each step, read back from the device. */
  readonly losses: number[];
  /**
   * Each step's wall time: from issuing it (and, for the first, the epoch's first upload) until
   * its loss was read back, the next input's upload included (host monotonic clock).
   */
  readonly stepMs: number[];
  /**
   * The part of each step spent preparing inputs on the host: assembling a batch and issuing its
   * upload (and device normalize) inside `next()`, host clock, no sync of its own. The rest of
   * the step is issuing the train step and waiting for its loss.
   */
  readonly inputMs: number[];
  /** The run's epoch time: the sum of its step times. */
  readonly epochMs: number;
  readonly images: number;
  /**
   * Tensors each step left alive beyond those alive before it, inputs still held excluded: a
   * model's first step creates its optimizer's slots (Adam: two per trainable weight); any
   * other step, 0 unless it leaks.
   */
  readonly newTensorsPerStep: number[];
}

/** One run of an interleaved epoch: its model and where its inputs come from. */
export interface Lane {
  readonly trainer: Trainer;
  readonly next: InputSource;
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
 * One epoch of train steps for several runs at once, interleaved step by step (step i of every
 * run, in an order rotated by i + `rotation`), so drift and background load hit all runs alike
 * and their step times pair up. Each run is double-buffered as a real training loop's input
 * pipeline is: while its step i runs on the device, the host assembles its batch i+1 and
 * issues the upload (and, for device-normalize, the decode), so transfer and compute overlap as
 * far as the device lets them; then step i's loss is read back (which waits for the device),
 * as a loop logging `loss.item()` does. On webgpu tfjs only records and submits a step's
 * dispatches, so the next upload is issued before the step finishes.
 */
export async function runInterleavedEpoch(
  lanes: readonly Lane[],
  rotation: number,
  tensorCount: () => number,
  onStep?: (lane: number, loss: number) => void,
): Promise<EpochRun[]> {
  const runs = lanes.map(() => ({ losses: [] as number[], stepMs: [] as number[], inputMs: [] as number[], images: 0, newTensorsPerStep: [] as number[] }));
  const pending: Array<StepInput | null | undefined> = lanes.map(() => undefined);
  const done = lanes.map(() => false);
  const held = () => pending.reduce((sum, p) => sum + (p?.heldTensors ?? 0), 0);
  let alive = tensorCount();
  for (let step = 0; done.some((d) => !d); step++) {
    for (let k = 0; k < lanes.length; k++) {
      const lane = (step + rotation + k) % lanes.length;
      if (done[lane]) continue;
      const { trainer } = lanes[lane]!;
      let inputMs = 0;
      const next = () => {
        const started = performance.now();
        const input = lanes[lane]!.next();
        inputMs += performance.now() - started;
        return input;
      };
      const start = performance.now();
      // The first input is fetched (uploaded) inside the run's first step; later ones were issued by the step before.
      const current = pending[lane] === undefined ? next() : pending[lane];
      if (!current) {
        done[lane] = true;
        continue;
      }
      const loss = trainStep(trainer.model, trainer.optimizer, current.x, current.labels);
      pending[lane] = next();
      const value = (await loss.data())[0]!;
      loss.dispose();
      current.release();
      const run = runs[lane]!;
      run.stepMs.push(performance.now() - start);
      run.inputMs.push(inputMs);
      run.losses.push(value);
      run.images += current.labels.length;
      const aliveNow = tensorCount() - held();
      run.newTensorsPerStep.push(aliveNow - alive);
      alive = aliveNow;
      if (!pending[lane]) done[lane] = true;
      onStep?.(lane, value);
    }
  }
  return runs.map((r) => ({ ...r, epochMs: r.stepMs.reduce((a, b) => a + b, 0) }));
}
