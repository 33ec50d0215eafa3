import * as tf from '@tensorflow/tfjs';

/**
 * The article's second network (section 10, its full training loop): Conv2d(1->32, 3x3) + ReLU,
 * MaxPool 2, Conv2d(32->64, 3x3) + ReLU, MaxPool 2, Flatten, Linear(1600 -> 10). NHWC (tfjs's
 * layout) instead of PyTorch's NCHW: 28 -> 26 -> 13 -> 11 -> 5, and 5*5*64 = 1,600 features.
 * Seeded initializers, so two models built with one seed start from the same weights.
 */
export function createTwoConvCnn(seed = 42): tf.Sequential {
  return tf.sequential({
    layers: [
      tf.layers.conv2d({
        inputShape: [28, 28, 1],
        filters: 32,
        kernelSize: 3,
        activation: 'relu',
        kernelInitializer: tf.initializers.glorotUniform({ seed }),
      }),
      tf.layers.maxPooling2d({ poolSize: 2 }),
      tf.layers.conv2d({ filters: 64, kernelSize: 3, activation: 'relu', kernelInitializer: tf.initializers.glorotUniform({ seed: seed + 1 }) }),
      tf.layers.maxPooling2d({ poolSize: 2 }),
      tf.layers.flatten(),
      tf.layers.dense({ units: 10, kernelInitializer: tf.initializers.glorotUniform({ seed: seed + 2 }) }),
    ],
  });
}

/** The article's optimizer for it: Adam, learning rate 1e-3 (tfjs's defaults for the betas and epsilon). */
export function createArticleOptimizer(): tf.Optimizer {
  return tf.train.adam(1e-3);
}
