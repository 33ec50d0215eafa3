import * as tf from '@tensorflow/tfjs';
import { installBackendWriteCounter } from './backend-write-counter.js';
import { BackendUnavailableError } from './errors.js';
import type { BackendContext } from './types.js';

// Ops on these backends run to completion on the calling thread (wasm threads are off in
// Node), so once the op returned its output exists: nothing to wait for.
const alreadySynchronous = async (): Promise<void> => {};
// backend.write (in tf.tensor) already put the data where these backends compute on it.
const alreadyUploaded = (): void => {};

/** Starts the wasm backend (XNNPACK, SIMD); its .wasm files load from node_modules. */
export async function startWasm(reason: string): Promise<BackendContext> {
  await import('@tensorflow/tfjs-backend-wasm');
  if (!(await tf.setBackend('wasm'))) throw new BackendUnavailableError('the wasm backend failed to initialize');
  return {
    name: 'wasm',
    reason,
    adapter: null,
    isUsingGpuDevice: null,
    transfers: installBackendWriteCounter(tf.engine(), tf.backend(), 'tfjs backend.write of host arrays (tf.tensor): bytes copied into the wasm heap'),
    upload: alreadyUploaded,
    sync: alreadySynchronous,
  };
}

/** Starts tfjs's plain JavaScript backend. */
export async function startCpu(reason: string): Promise<BackendContext> {
  if (!(await tf.setBackend('cpu'))) throw new BackendUnavailableError('the cpu backend failed to initialize');
  return {
    name: 'cpu',
    reason,
    adapter: null,
    isUsingGpuDevice: null,
    transfers: installBackendWriteCounter(tf.engine(), tf.backend(), 'tfjs backend.write of host arrays (tf.tensor): arrays handed to the cpu backend (kept by reference, not copied)'),
    upload: alreadyUploaded,
    sync: alreadySynchronous,
  };
}

const TFJS_NODE_GPU = '@tensorflow/tfjs-node-gpu';

/** True when the optional peer @tensorflow/tfjs-node-gpu can be resolved. */
export function isTensorflowInstalled(): boolean {
  try {
    import.meta.resolve(TFJS_NODE_GPU);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts @tensorflow/tfjs-node-gpu (TensorFlow C library, CUDA). An optional peer dependency:
 * its install downloads libtensorflow, so it is never installed by `npm ci` and never runs in CI.
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
  const backend = tf.backend() as tf.KernelBackend & { isUsingGpuDevice?: boolean };
  return {
    name: 'tensorflow',
    reason,
    adapter: null,
    isUsingGpuDevice: backend.isUsingGpuDevice ?? false,
    transfers: installBackendWriteCounter(tf.engine(), backend, 'tfjs backend.write of host arrays (tf.tensor): bytes copied into TensorFlow tensors'),
    upload: alreadyUploaded,
    async sync(tensor) {
      // TensorFlow runs GPU ops asynchronously on a stream: reading one element of the output
      // waits for everything that produced it.
      const probe = tf.tidy(() => tensor.flatten().slice(0, 1));
      await probe.data();
      probe.dispose();
    },
  };
}
