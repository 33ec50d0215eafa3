import * as tf from '@tensorflow/tfjs';
import { afterAll, describe, expect, it } from 'vitest';
import { residentInputs, runInterleavedEpoch, type InputSource, type Trainer } from './loop.js';

// A tiny model on whatever backend the process runs (the loop's logic, not the network, is under test).
function tinyTrainer(): Trainer {
  const model = tf.sequential({
    layers: [tf.layers.flatten({ inputShape: [2, 2, 1] }), tf.layers.dense({ units: 10, kernelInitializer: tf.initializers.glorotUniform({ seed: 3 }) })],
  });
  return { model, optimizer: tf.train.adam(1e-3) };
}

const inputs = Array.from({ length: 3 }, (_, i) => ({ x: tf.tensor4d([i, 1, 2, 3], [1, 2, 2, 1]), labels: Int32Array.of(i) }));
afterAll(() => {
  for (const i of inputs) i.x.dispose();
});

/** Fresh copies of the inputs, one per call, as an uploading source makes them. */
function copies(): InputSource {
  let i = 0;
  return () => {
    const input = inputs[i++];
    if (!input) return null;
    const x = input.x.clone();
    return { x, labels: input.labels, heldTensors: 1, release: () => x.dispose() };
  };
}

describe('runInterleavedEpoch', () => {
  it('runs the lanes step by step in rotating order, with equal losses for equal inputs and no tensor left behind', async () => {
    const before = tf.memory().numTensors;
    const trainers = [tinyTrainer(), tinyTrainer()];
    const order: number[] = [];
    const [fresh, resident] = await runInterleavedEpoch(
      [
        { trainer: trainers[0]!, next: copies() },
        { trainer: trainers[1]!, next: residentInputs(inputs) },
      ],
      1,
      () => tf.memory().numTensors,
      (lane) => order.push(lane),
    );
    expect(order).toEqual([1, 0, 0, 1, 1, 0]);
    expect(fresh!.losses).toEqual(resident!.losses);
    expect(fresh!.losses).toHaveLength(3);
    expect(fresh!.images).toBe(3);
    // Adam's two moments per trainable weight (kernel, bias) on the first step, nothing after.
    expect(fresh!.newTensorsPerStep).toEqual([4, 0, 0]);
    expect(resident!.newTensorsPerStep).toEqual([4, 0, 0]);
    // The input part of a step is a part of it.
    for (const [i, ms] of fresh!.inputMs.entries()) expect(ms).toBeLessThanOrEqual(fresh!.stepMs[i]!);
    expect(fresh!.inputMs).toHaveLength(3);
    expect(fresh!.epochMs).toBeCloseTo(
      fresh!.stepMs.reduce((a, b) => a + b, 0),
      9,
    );
    for (const t of trainers) {
      t.optimizer.dispose();
      t.model.dispose();
    }
    expect(tf.memory().numTensors).toBe(before);
  });
});
