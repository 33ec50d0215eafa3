import type { TfBinding, TfNodeBackend } from './tensorflow-binding.js';
import { MutableTransferCounter } from './transfer-counter.js';

/** Each counting binding's native binding. */
const nativeBindings = new WeakMap<TfBinding, TfBinding>();

/**
 * Counts host<->TensorFlow bytes at the native binding, where they really cross: every host
 * array becomes a TF tensor through `createTensor` (tfjs defers it to the tensor's first use;
 * the harness's uint8 path calls it directly), and every readback goes through `tensorDataSync`.
 * Data is what TensorFlow copies to GPU:0 at creation (tfjs_backend.cc CreateTensor: every
 * dtype but int32 and string). Scalars (shape []) and int32 tensors are op parameters (a
 * normalization's mean and std; the shape, begin and size tensors tfjs-node's Reshape and Slice
 * kernels make) that TensorFlow keeps in host memory: counted apart, like WebGPU uniforms.
 * The binding's own properties are read-only, so the backend gets a counting object that
 * inherits from it. Run for real on tfjs-node 4.22 over TensorFlow 2.21 (npm run setup:tensorflow):
 * 50,176 B (uint8) and 200,704 B (float32) per MNIST batch of 64x28x28x1.
 */
export function installTensorflowTransferCounter(backend: TfNodeBackend): MutableTransferCounter {
  const counter = new MutableTransferCounter(
    'TensorFlow C API (tfjs-node binding): typed arrays handed to createTensor, which TensorFlow copies to GPU:0 when it uses one ' +
      '(data; scalars and int32 tensors, kept in host memory, counted as parameters), tensorDataSync (readback)',
  );
  // A backend started again in the same process (tfjs keeps one NodeJSKernelBackend) is
  // wrapped once: the new counter replaces the old one instead of counting on top of it.
  const native = nativeBindings.get(backend.binding) ?? backend.binding;
  const counting: TfBinding = Object.create(native, {
    createTensor: {
      value(shape: number[], dtype: number, buffer: Parameters<TfBinding['createTensor']>[2]): number {
        const bytes = ArrayBuffer.isView(buffer) ? buffer.byteLength : 0; // string tensors (arrays of byte arrays) stay on the host
        if (shape.length === 0 || dtype === native.TF_INT32 || dtype === native.TF_STRING) counter.uniformBytes += bytes;
        else counter.dataBytes += bytes;
        return native.createTensor(shape, dtype, buffer);
      },
    },
    tensorDataSync: {
      value(tensorId: number): ReturnType<TfBinding['tensorDataSync']> {
        const values = native.tensorDataSync(tensorId);
        counter.readbackBytes += values.byteLength;
        return values;
      },
    },
  }) as TfBinding;
  nativeBindings.set(counting, native);
  backend.binding = counting;
  return counter;
}
