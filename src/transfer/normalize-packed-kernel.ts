import * as tf from '@tensorflow/tfjs';
import type { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import type { TfNodeBackend } from '../backend/tensorflow-binding.js';
import type { Normalization } from './normalization.js';
import { NormalizePackedBytesProgram } from './normalize-packed-program.js';
import { unpackedView } from './packed-bytes.js';
import { decodeOnHost, viewPackedWords } from './payload.js';
import { decodeOnTensorflow } from './tensorflow-decode.js';
import { WIRE_BYTES, type PackedWireDtype } from './wire-dtypes.js';

/**
 * Kernel: a packed uint8, int8 or float16 payload (int32 words) -> float32 tensor, decoded and
 * normalized in one pass. Registered as a tfjs kernel so it appears in tf.profile tables and
 * is tracked by tf.tidy. (The name predates int8/float16; uint8 pixels are still its main use.)
 */
export const NORMALIZE_PACKED_BYTES = 'NormalizePackedBytes';

/** Attributes of the kernel. */
export interface NormalizePackedAttrs extends Normalization {
  /** Output shape; its size is the number of elements carried by the words. */
  readonly shape: number[];
  /** Element type packed in the words; uint8 when absent. */
  readonly wire?: PackedWireDtype;
}

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

function unpackArgs(args: KernelArgs): { packed: tf.TensorInfo; attrs: NormalizePackedAttrs; wire: PackedWireDtype; count: number } {
  const packed = args.inputs.packed;
  if (!packed || packed.dtype !== 'int32') throw new Error(`${NORMALIZE_PACKED_BYTES} needs an int32 input named 'packed'`);
  const attrs = args.attrs as unknown as NormalizePackedAttrs;
  const wire = attrs.wire ?? 'uint8';
  const count = tf.util.sizeFromShape(attrs.shape);
  if (count * WIRE_BYTES[wire] > packed.shape.reduce((a, b) => a * b, 1) * 4) {
    throw new RangeError(`${NORMALIZE_PACKED_BYTES}: ${count} ${wire} elements do not fit in ${packed.shape[0]} words`);
  }
  return { packed, attrs, wire, count };
}

/** On the GPU: one invocation per word, decoded with shifts or unpack2x16float and normalized in one pass. */
function webgpuKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs, wire } = unpackArgs(args);
  const backend = args.backend as WebGPUBackend;
  return backend.runWebGPUProgram(new NormalizePackedBytesProgram(attrs.shape, wire, attrs), [packed], 'float32');
}

/** On the cpu backend: reads the words in place and writes a new float32 array. */
function cpuKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs, wire, count } = unpackArgs(args);
  const backend = args.backend as MathBackendCPU;
  const words = backend.data.get(packed.dataId).values as Int32Array;
  return backend.makeTensorInfo(attrs.shape, 'float32', decodeOnHost(wire, viewPackedWords(words, wire, count), attrs));
}

/** On wasm: reads the words where they landed in the wasm heap and writes the output there. */
function wasmKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs, wire, count } = unpackArgs(args);
  const backend = args.backend as BackendWasm;
  // Output first: allocating it may grow the wasm memory, which detaches earlier heap views.
  const out = backend.makeOutput(attrs.shape, 'float32');
  const words = backend.typedArrayFromHeap(packed) as Int32Array;
  decodeOnHost(wire, viewPackedWords(words, wire, count), attrs, backend.typedArrayFromHeap(out) as Float32Array);
  return out;
}

/**
 * On tensorflow (tfjs-node-gpu, UNVERIFIED in CI): the words' host array is read before it ever
 * becomes a TF tensor (readSync returns the pending host values), and only its payload bytes are
 * handed to TensorFlow, as a TF_UINT8 tensor decoded by TF ops on the device.
 */
function tensorflowKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs, wire, count } = unpackArgs(args);
  const backend = args.backend as TfNodeBackend;
  const words = backend.readSync(packed.dataId) as Int32Array;
  return decodeOnTensorflow(backend, unpackedView(words, count * WIRE_BYTES[wire]), wire, attrs.shape, attrs);
}

const kernels = { webgpu: webgpuKernel, cpu: cpuKernel, wasm: wasmKernel, tensorflow: tensorflowKernel } as const;

for (const [backendName, kernelFunc] of Object.entries(kernels)) {
  if (!tf.getKernel(NORMALIZE_PACKED_BYTES, backendName)) {
    tf.registerKernel({ kernelName: NORMALIZE_PACKED_BYTES, backendName, kernelFunc: kernelFunc as tf.KernelFunc });
  }
}

/** Whether the current backend can take packed payloads (else only 4-byte elements reach it). */
export function hasPackedKernel(): boolean {
  return tf.getKernel(NORMALIZE_PACKED_BYTES, tf.getBackend()) !== undefined;
}
