import * as tf from '@tensorflow/tfjs';
import type { ImageDataset } from '../data/dataset.js';
import { BatchLoader } from '../data/loader.js';
import type { TransferStrategy } from '../transfer/strategies/strategies.js';

/** Correct predictions on a held-out set. */
export interface Accuracy {
  readonly correct: number;
  readonly count: number;
  /** correct / count. */
  readonly accuracy: number;
}

/** The share of `data` the model classifies right (argmax of the logits), inputs sent by `strategy`. */
export async function heldOutAccuracy(model: tf.LayersModel, data: ImageDataset, strategy: TransferStrategy, batchSize: number): Promise<Accuracy> {
  let correct = 0;
  for (const batch of new BatchLoader(data, { batchSize, shuffle: false, seed: 0, dropLast: false }).epoch(0)) {
    const x = strategy.toDevice(batch);
    const predicted = tf.tidy(() => (model.predict(x) as tf.Tensor).argMax(-1));
    x.dispose();
    const classes = await predicted.data();
    predicted.dispose();
    classes.forEach((c, k) => {
      if (c === batch.labels[k]) correct++;
    });
  }
  return { correct, count: data.count, accuracy: data.count > 0 ? correct / data.count : Number.NaN };
}
