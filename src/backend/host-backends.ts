import * as tf from '@tensorflow/tfjs';
import { installBackendWriteCounter } from './backend-write-counter.js';
import { recordCapabilities } from './capabilities.js';
import { BackendUnavailableError } from './errors.js';
import type { BackendCapabilities, BackendContext } from './types.js';

// Ops on these backends run to completion on the calling thread (wasm threads are off in
// Node), so once the op returned its output exists: nothing to wait for.
const alreadySynchronous = async (): Promise<void> => {};
// backend.write (in tf.tensor) already put the data where these backends compute on it.
const alreadyUploaded = (): void => {};

/** What the host backends can do: no GPU device; wasm copies host arrays into its heap, cpu keeps them by reference. */
export const HOST_CAPABILITIES: Readonly<Record<'wasm' | 'cpu', BackendCapabilities>> = {
  wasm: { hasGpuDevice: false, gpuTimestamps: false, copiesHostArrays: true },
  cpu: { hasGpuDevice: false, gpuTimestamps: false, copiesHostArrays: false },
};

/** Starts the wasm backend (XNNPACK, SIMD); its .wasm files load from node_modules. */
export async function startWasm(reason: string): Promise<BackendContext> {
  await import('@tensorflow/tfjs-backend-wasm');
  if (!(await tf.setBackend('wasm'))) throw new BackendUnavailableError('the wasm backend failed to initialize');
  return {
    name: 'wasm',
    reason,
    adapter: null,
    isUsingGpuDevice: null,
    capabilities: recordCapabilities(HOST_CAPABILITIES.wasm),
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
    capabilities: recordCapabilities(HOST_CAPABILITIES.cpu),
    transfers: installBackendWriteCounter(
      tf.engine(),
      tf.backend(),
      'tfjs backend.write of host arrays (tf.tensor): arrays handed to the cpu backend (kept by reference, not copied)',
    ),
    upload: alreadyUploaded,
    sync: alreadySynchronous,
  };
}

// The tensorflow (tfjs-node-gpu) backend has its own files (binding types, byte counter).
export { isTensorflowInstalled, startTensorflow } from './tensorflow.js';
