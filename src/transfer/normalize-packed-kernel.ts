import * as tf from '@tensorflow/tfjs';
import type { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import { normalizeOnHost, type Normalization } from './normalization.js';
import { unpackedView } from './packed-bytes.js';
import { NormalizePackedBytesProgram } from './normalize-packed-program.js';

/**
 * Kernel: packed uint8 pixels (int32 words, 4 pixels each) -> normalized float32 tensor.
 * Registered as a tfjs kernel so it appears in tf.profile tables and is tracked by tf.tidy.
 */
export const NORMALIZE_PACKED_BYTES = 'NormalizePackedBytes';

export interface NormalizePackedAttrs extends Normalization {
  /** Output shape; its size is the number of pixels (<= 4 x words). */
  readonly shape: number[];
}

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

function unpackArgs(args: KernelArgs): { packed: tf.TensorInfo; attrs: NormalizePackedAttrs } {
  const packed = args.inputs.packed;
  if (!packed || packed.dtype !== 'int32') throw new Error(`${NORMALIZE_PACKED_BYTES} needs an int32 input named 'packed'`);
  return { packed, attrs: args.attrs as unknown as NormalizePackedAttrs };
}

/** On the GPU: one invocation per word, unpacked with shifts and normalized in one pass. */
function webgpuKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs } = unpackArgs(args);
  const backend = args.backend as WebGPUBackend;
  return backend.runWebGPUProgram(new NormalizePackedBytesProgram(attrs.shape, attrs), [packed], 'float32');
}

/** On the cpu backend: reads the bytes in place and writes a new float32 array. */
function cpuKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs } = unpackArgs(args);
  const backend = args.backend as MathBackendCPU;
  const words = backend.data.get(packed.dataId).values as Int32Array;
  const pixels = unpackedView(words, tf.util.sizeFromShape(attrs.shape));
  return backend.makeTensorInfo(attrs.shape, 'float32', normalizeOnHost(pixels, attrs));
}

/** On wasm: reads the bytes where they landed in the wasm heap and writes the output there. */
function wasmKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs } = unpackArgs(args);
  const backend = args.backend as BackendWasm;
  const words = backend.typedArrayFromHeap(packed) as Int32Array;
  const out = backend.makeOutput(attrs.shape, 'float32');
  const pixels = unpackedView(words, tf.util.sizeFromShape(attrs.shape));
  normalizeOnHost(pixels, attrs, backend.typedArrayFromHeap(out) as Float32Array);
  return out;
}

const kernels = { webgpu: webgpuKernel, cpu: cpuKernel, wasm: wasmKernel } as const;

for (const [backendName, kernelFunc] of Object.entries(kernels)) {
  if (!tf.getKernel(NORMALIZE_PACKED_BYTES, backendName)) {
    tf.registerKernel({ kernelName: NORMALIZE_PACKED_BYTES, backendName, kernelFunc: kernelFunc as tf.KernelFunc });
  }
}

/** Whether the current backend can take packed bytes (else only 4-byte elements reach it). */
export function hasPackedKernel(): boolean {
  return tf.getKernel(NORMALIZE_PACKED_BYTES, tf.getBackend()) !== undefined;
}
