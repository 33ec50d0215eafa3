import * as tf from '@tensorflow/tfjs';

/**
 * A small (2+1)D video classifier for the Kinetics scenario (section 8), after Tran et al.,
 * "A Closer Look at Spatiotemporal Convolutions for Action Recognition" (CVPR 2018): a spatial
 * 1x3x3 convolution (stride 2 in space) then a temporal 3x1x1 convolution (stride 2 in time),
 * twice, an average over what is left, and a dense layer to class logits.
 * Input [B,T,H,W,3] (NDHWC, tfjs's layout for conv3d).
 */
export function createVideoClassifier(frames: number, height: number, width: number, classes: number, seed = 11): tf.LayersModel {
  const init = (k: number) => tf.initializers.glorotUniform({ seed: seed + k });
  const input = tf.input({ shape: [frames, height, width, 3] });
  let x = input as tf.SymbolicTensor;
  for (const [k, filters] of [16, 32].entries()) {
    x = tf.layers
      .conv3d({ filters, kernelSize: [1, 3, 3], strides: [1, 2, 2], padding: 'same', activation: 'relu', kernelInitializer: init(2 * k) })
      .apply(x) as tf.SymbolicTensor;
    x = tf.layers
      .conv3d({ filters, kernelSize: [3, 1, 1], strides: [2, 1, 1], padding: 'same', activation: 'relu', kernelInitializer: init(2 * k + 1) })
      .apply(x) as tf.SymbolicTensor;
  }
  const [, t, h, w] = x.shape as [null, number, number, number, number];
  x = tf.layers.averagePooling3d({ poolSize: [t, h, w] }).apply(x) as tf.SymbolicTensor;
  x = tf.layers.flatten().apply(x) as tf.SymbolicTensor;
  const logits = tf.layers.dense({ units: classes, kernelInitializer: init(9) }).apply(x) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: logits });
}

/** Softmax cross-entropy of clip logits [B,K] against int32 class indices. */
export function videoLoss(model: tf.LayersModel, x: tf.Tensor, labels: Int32Array, classes: number): tf.Scalar {
  return tf.tidy(() => {
    const oneHot = tf.oneHot(tf.tensor1d(labels, 'int32'), classes);
    return tf.losses.softmaxCrossEntropy(oneHot, model.apply(x) as tf.Tensor) as tf.Scalar;
  });
}
