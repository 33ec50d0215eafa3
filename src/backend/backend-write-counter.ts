import type { KernelBackend } from '@tensorflow/tfjs-core';
import { MutableTransferCounter } from './transfer-counter.js';

/**
 * Counts the bytes of every typed array handed to a tfjs backend's `write` (what `tf.tensor()`
 * calls). For wasm that is a copy into the wasm heap; for cpu the backend keeps a reference;
 * for tensorflow a copy into a TF tensor. Used where there is no device API to watch.
 */
export function installBackendWriteCounter(backend: KernelBackend, boundary: string): MutableTransferCounter {
  const counter = new MutableTransferCounter(boundary);
  const write = backend.write.bind(backend);
  backend.write = (values, shape, dtype) => {
    if (values !== null && ArrayBuffer.isView(values)) counter.dataBytes += values.byteLength;
    return write(values, shape, dtype);
  };
  return counter;
}
