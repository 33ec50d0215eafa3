import * as tf from '@tensorflow/tfjs';
import { recordCapabilities } from './capabilities.js';
import { BackendUnavailableError } from './errors.js';
import type { TfNodeBackend } from './tensorflow-binding.js';
import { installTensorflowTransferCounter } from './tensorflow-transfer-counter.js';
import type { BackendContext } from './types.js';
import { isTensorflowInstalled, TFJS_NODE_GPU } from './tensorflow-installed.js';

export { isTensorflowInstalled } from './tensorflow-installed.js';

/**
 * Starts @tensorflow/tfjs-node-gpu (TensorFlow C library, CUDA). An optional peer dependency:
 * its install downloads libtensorflow, so it is never installed by `npm ci` and never runs in CI.
 * Bytes are counted at its native binding (tensorflow-transfer-counter.ts).
 */
export async function startTensorflow(reason: string): Promise<BackendContext> {
  if (!isTensorflowInstalled()) {
    throw new BackendUnavailableError(
      `${TFJS_NODE_GPU} is not installed. It is an optional peer dependency: run ` +
        `\`npm install ${TFJS_NODE_GPU}@4.22.0\` on a machine that can download libtensorflow ` +
        '(CUDA 11.2 and cuDNN 8.1 for the GPU). This backend is not exercised in CI.',
    );
  }
  const specifier: string = TFJS_NODE_GPU; // a variable: the package has no types here
  await import(specifier);
  if (!(await tf.setBackend('tensorflow'))) throw new BackendUnavailableError('the tensorflow backend failed to initialize');
  const backend = tf.backend() as TfNodeBackend;
  return {
    name: 'tensorflow',
    reason,
    adapter: null,
    isUsingGpuDevice: backend.isUsingGpuDevice ?? false,
    // Its GPU (if any) is CUDA behind TensorFlow, not a WebGPU device; whether it copies host arrays is not verified.
    capabilities: recordCapabilities({ hasGpuDevice: false, gpuTimestamps: false, copiesHostArrays: false }),
    transfers: installTensorflowTransferCounter(backend),
    upload(tensor) {
      // tfjs-node creates the TF tensor (and its copy to GPU:0) on first use; do it now.
      backend.getInputTensorIds([tensor]);
    },
    async sync(tensor) {
      // TensorFlow runs GPU ops asynchronously on a stream: reading one element of the output
      // waits for everything that produced it.
      const probe = tf.tidy(() => tensor.flatten().slice(0, 1));
      await probe.data();
      probe.dispose();
    },
  };
}
