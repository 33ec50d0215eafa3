import * as tf from '@tensorflow/tfjs';

/** One optimizer step on any loss: forward, backward, update, inside tidy. Returns the loss. */
export function minimizeStep(optimizer: tf.Optimizer, loss: () => tf.Scalar): tf.Scalar {
  return tf.tidy(() => {
    const value = optimizer.minimize(loss, true);
    if (!value) throw new Error('optimizer.minimize returned no loss');
    return value;
  });
}

/** Whether the running backend can train convolutions (tfjs-backend-wasm 4.22 has no Conv2DBackpropFilter). */
export function canTrainConvolutions(kernel: 'Conv2DBackpropFilter' | 'Conv3DBackpropFilterV2' = 'Conv2DBackpropFilter'): boolean {
  return tf.getKernel(kernel, tf.getBackend()) !== undefined;
}
