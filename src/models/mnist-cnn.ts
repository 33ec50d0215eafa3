import * as tf from '@tensorflow/tfjs';

/**
 * The article's network: Conv2d(1->32, 3x3) + ReLU, Flatten, Linear(26*26*32 -> 10), in NHWC
 * (tfjs's layout) instead of PyTorch's NCHW. Seeded initializers make runs comparable.
 */
export function createMnistCnn(seed = 42): tf.Sequential {
  return tf.sequential({
    layers: [
      tf.layers.conv2d({
        inputShape: [28, 28, 1],
        filters: 32,
        kernelSize: 3,
        activation: 'relu',
        kernelInitializer: tf.initializers.glorotUniform({ seed }),
      }),
      tf.layers.flatten(),
      tf.layers.dense({ units: 10, kernelInitializer: tf.initializers.glorotUniform({ seed: seed + 1 }) }),
    ],
  });
}

function crossEntropy(model: tf.Sequential, x: tf.Tensor4D, labels: Int32Array): tf.Scalar {
  const oneHot = tf.oneHot(tf.tensor1d(labels, 'int32'), 10);
  return tf.losses.softmaxCrossEntropy(oneHot, model.apply(x) as tf.Tensor) as tf.Scalar;
}

/** Forward pass and cross-entropy on logits, no update. Returns the loss. */
export function lossOnly(model: tf.Sequential, x: tf.Tensor4D, labels: Int32Array): tf.Scalar {
  return tf.tidy(() => crossEntropy(model, x, labels));
}

/** One training step: forward, cross-entropy on logits, backward, optimizer update. Returns the loss. */
export function trainStep(model: tf.Sequential, optimizer: tf.Optimizer, x: tf.Tensor4D, labels: Int32Array): tf.Scalar {
  return tf.tidy(() => {
    const loss = optimizer.minimize(() => crossEntropy(model, x, labels), true);
    if (!loss) throw new Error('optimizer.minimize returned no loss');
    return loss;
  });
}
