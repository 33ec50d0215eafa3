import type { engine as tfEngine, KernelBackend } from '@tensorflow/tfjs-core';

type Engine = ReturnType<typeof tfEngine>;
import { MutableTransferCounter } from './transfer-counter.js';

/**
 * Counts the bytes of every typed array that host code hands to a tfjs backend: the arrays
 * `backend.write` receives while the engine is making a tensor from host values (what
 * `tf.tensor()` does), after tfjs's own dtype conversion. Arrays a kernel writes for its output
 * are not host traffic and are not counted. For wasm `write` copies into the wasm heap; for cpu
 * the backend keeps a reference. (tensorflow counts at its native binding instead.)
 */
export function installBackendWriteCounter(engine: Engine, backend: KernelBackend, boundary: string): MutableTransferCounter {
  const counter = new MutableTransferCounter(boundary);
  let makingHostTensor = 0;
  const makeTensor = engine.makeTensor.bind(engine);
  engine.makeTensor = (...args: Parameters<Engine['makeTensor']>) => {
    makingHostTensor++;
    try {
      return makeTensor(...args);
    } finally {
      makingHostTensor--;
    }
  };
  const write = backend.write.bind(backend);
  backend.write = (values, shape, dtype) => {
    if (makingHostTensor > 0 && values !== null && ArrayBuffer.isView(values)) counter.dataBytes += values.byteLength;
    return write(values, shape, dtype);
  };
  return counter;
}
