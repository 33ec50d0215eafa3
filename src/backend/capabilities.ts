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

/**
 * The backend tfjs computes on now. A failed tf.setBackend(name) leaves getBackend() saying `name`
 * with no backend behind it; the next op then starts the best backend that works (tfjs-core 4.22
 * engine.setBackend and its `backend` getter). Resolving the backend first is what tells that
 * fallback apart; null when none can start.
 */
export function runningBackendName(): string | null {
  try {
    tf.backend();
  } catch {
    return null;
  }
  return tf.getBackend() ?? null;
}
