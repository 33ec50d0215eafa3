import * as tf from '@tensorflow/tfjs';
import type { Batch } from '../data/loader.js';
import { profileKernels, type KernelTable } from '../measure/kernel-profile.js';
import { createMnistCnn, lossOnly, trainStep } from '../models/mnist-cnn.js';
import type { TransferStrategy } from '../transfer/strategies/strategies.js';

/** One train step under tf.profile: the top-10 kernel table and every kernel name that ran. */
export interface TrainStepKernels {
  readonly table: KernelTable;
  readonly kernelNames: ReadonlySet<string>;
  readonly loss: number;
}

/**
 * Article sections 3 and 5: one train step of the article's model, input preparation included,
 * under tf.profile, after `warmupSteps` unprofiled steps (shader compilation, buffer pools).
 */
export async function trainStepKernels(strategy: TransferStrategy, batch: Batch, warmupSteps: number): Promise<TrainStepKernels> {
  const model = createMnistCnn();
  const optimizer = tf.train.adam(1e-3);
  // tfjs-backend-wasm 4.22 has no Conv2DBackpropFilter kernel: it cannot train this model.
  // Profile what it can run (forward + loss) and say so, rather than fail or fake a backward pass.
  const canTrain = tf.getKernel('Conv2DBackpropFilter', tf.getBackend()) !== undefined;
  const stepName = canTrain
    ? 'train step: input transfer, forward, cross-entropy, backward, Adam update'
    : `forward + cross-entropy only: backend ${tf.getBackend()} has no Conv2DBackpropFilter kernel, so it cannot train this model`;
  const step = (): tf.Scalar => {
    const x = strategy.toDevice(batch);
    const loss = canTrain ? trainStep(model, optimizer, x, batch.labels) : lossOnly(model, x, batch.labels);
    x.dispose();
    return loss;
  };
  try {
    for (let i = 0; i < warmupSteps; i++) {
      const loss = step();
      await loss.data();
      loss.dispose();
    }
    const names = new Set<string>();
    let lossValue = Number.NaN;
    const table = await profileKernels(
      () => step(),
      10,
      stepName,
      async (info) => {
        for (const n of info.kernelNames) names.add(n);
        const loss = info.result as tf.Scalar;
        lossValue = (await loss.data())[0]!;
        loss.dispose();
      },
    );
    return { table, kernelNames: names, loss: lossValue };
  } finally {
    optimizer.dispose();
    model.dispose();
  }
}
