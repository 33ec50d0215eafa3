import * as tf from '@tensorflow/tfjs';
import { expect } from 'vitest';
import type { BackendContext } from '../backend/types.js';
import { profileKernels, type KernelTable } from '../measure/kernel-profile.js';
import { maxAbsDiff } from '../measure/statistics.js';
import { minimizeStep } from '../models/train-step.js';
import { stagedToDevice, type StagedTransfer } from '../transfer/strategies/staged-transfer.js';
import { countAndRead, type Readback } from './readback.js';

/**
 * Largest allowed |cpu-normalize - device-normalize| for ImageNet-normalized pixels (|y| < 2.7):
 * the host rounds (x - mean) / std once from float64; the device computes it in f32 from f32
 * mean and std, within 2.5 ULP for the division (WGSL spec, "Floating Point Accuracy") plus
 * the constants' rounding; an f32 ULP below 4 is at most 2^-22 = 2.4e-7, so 1e-6 bounds it.
 */
export const MEDIA_MAX_DIFF = 1e-6;

/** Moves one batch with a staged strategy and reads the result back, with the bytes it took. */
export function stagedAndRead(context: BackendContext, t: StagedTransfer, pixels: Uint8Array, shape: readonly number[]): Promise<Readback> {
  return countAndRead(context, () => stagedToDevice(t, pixels, shape));
}

/** Both strategies give the same model input: asserts shape and closeness; returns the largest difference. */
export async function expectSameInput(
  context: BackendContext,
  strategies: readonly StagedTransfer[],
  pixels: Uint8Array,
  shape: readonly number[],
): Promise<{ diff: number; reads: Readback[] }> {
  const reads: Readback[] = [];
  for (const t of strategies) reads.push(await stagedAndRead(context, t, pixels, shape));
  const [a, b] = reads as [Readback, Readback];
  expect(b.shape).toEqual(a.shape);
  expect(a.shape).toEqual([...shape]);
  const diff = maxAbsDiff(a.values, b.values);
  expect(diff).toBeLessThanOrEqual(MEDIA_MAX_DIFF);
  return { diff, reads };
}

/** One profiled train step fed by a strategy: the loss and the top-10 kernel table. */
export interface ProfiledStep {
  readonly loss: number;
  readonly table: KernelTable;
}

/**
 * One Adam step (learning rate 1e-3) of a freshly built, seeded model, with the input produced
 * by `strategy` inside the profiled step, after one unprofiled warm-up step on a second fresh
 * model (shader compilation). Fresh seeded models make both strategies start from the same weights.
 */
export async function profiledTrainStep(
  strategy: StagedTransfer,
  build: () => tf.LayersModel,
  pixels: Uint8Array,
  shape: readonly number[],
  loss: (model: tf.LayersModel, x: tf.Tensor) => tf.Scalar,
  what: string,
): Promise<ProfiledStep> {
  const run = async (profile: boolean): Promise<ProfiledStep | null> => {
    const model = build();
    const optimizer = tf.train.adam(1e-3);
    const step = () => {
      const x = stagedToDevice(strategy, pixels, shape);
      const value = minimizeStep(optimizer, () => loss(model, x));
      x.dispose();
      return value;
    };
    try {
      if (!profile) {
        const value = step();
        await value.data();
        value.dispose();
        return null;
      }
      let lossValue = Number.NaN;
      const table = await profileKernels(step, 10, `${what}, input from ${strategy.id}`, async (info) => {
        const value = info.result as tf.Scalar;
        lossValue = (await value.data())[0]!;
        value.dispose();
      });
      return { loss: lossValue, table };
    } finally {
      optimizer.dispose();
      model.dispose();
    }
  };
  await run(false);
  return (await run(true))!;
}
