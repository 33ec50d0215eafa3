import * as tf from '@tensorflow/tfjs';
import type { BackendCapabilities } from './types.js';

/** A backend the harness did not start (set with tf.setBackend alone) is assumed to offer none. */
const NONE: BackendCapabilities = { hasGpuDevice: false, gpuTimestamps: false, copiesHostArrays: false };

const byBackend = new WeakMap<tf.KernelBackend, BackendCapabilities>();

/** Records the capabilities of the tfjs backend active now (each start function calls it) and returns them. */
export function recordCapabilities(capabilities: BackendCapabilities): BackendCapabilities {
  byBackend.set(tf.backend(), capabilities);
  return capabilities;
}

/** The capabilities of the backend tfjs computes on now, for code that holds no BackendContext. */
export function activeCapabilities(): BackendCapabilities {
  return byBackend.get(tf.backend()) ?? NONE;
}
