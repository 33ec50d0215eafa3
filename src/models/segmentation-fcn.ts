import * as tf from '@tensorflow/tfjs';

/**
 * A small fully convolutional segmentation network for the COCO scenario (section 7): an
 * encoder of two strided 3x3 convolutions (1/4 resolution), a decoder of two nearest-neighbour
 * 2x upsamplings each followed by a 3x3 convolution, and a 1x1 convolution to per-pixel class
 * logits. Input [B,S,S,3] (S divisible by 4), output [B,S,S,classes]. Seeded initializers.
 */
export function createSegmentationFcn(side: number, classes: number, seed = 7): tf.Sequential {
  if (side % 4 !== 0) throw new RangeError(`createSegmentationFcn: side ${side} is not divisible by 4`);
  const init = (k: number) => tf.initializers.glorotUniform({ seed: seed + k });
  return tf.sequential({
    layers: [
      tf.layers.conv2d({
        inputShape: [side, side, 3],
        filters: 16,
        kernelSize: 3,
        strides: 2,
        padding: 'same',
        activation: 'relu',
        kernelInitializer: init(0),
      }),
      tf.layers.conv2d({ filters: 32, kernelSize: 3, strides: 2, padding: 'same', activation: 'relu', kernelInitializer: init(1) }),
      tf.layers.upSampling2d({ size: [2, 2] }),
      tf.layers.conv2d({ filters: 16, kernelSize: 3, padding: 'same', activation: 'relu', kernelInitializer: init(2) }),
      tf.layers.upSampling2d({ size: [2, 2] }),
      tf.layers.conv2d({ filters: 16, kernelSize: 3, padding: 'same', activation: 'relu', kernelInitializer: init(3) }),
      tf.layers.conv2d({ filters: classes, kernelSize: 1, kernelInitializer: init(4) }),
    ],
  });
}

/** Per-pixel softmax cross-entropy of logits [B,S,S,K] against int32 class masks [B,S,S]. */
export function segmentationLoss(model: tf.LayersModel, x: tf.Tensor, masks: tf.Tensor, classes: number): tf.Scalar {
  return tf.tidy(() => {
    const logits = model.apply(x) as tf.Tensor;
    const oneHot = tf.oneHot(masks.reshape([-1]) as tf.Tensor1D, classes);
    return tf.losses.softmaxCrossEntropy(oneHot, logits.reshape([-1, classes])) as tf.Scalar;
  });
}
