import * as tf from '@tensorflow/tfjs';
import type { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import type { TfNodeBackend } from '../../backend/tensorflow-binding.js';
import {
  checkChannelNormalization,
  isPerChannel,
  normalizationOf,
  uniformChannels,
  type AnyNormalization,
  type ChannelNormalization,
  type Normalization,
} from '../normalization.js';
import { DirectDispatcher } from '../webgpu/direct-dispatch.js';
import { NormalizePackedBytesProgram, NormalizePackedVec4Program, PER_WORD, type Vec4ProgramOptions } from '../webgpu/normalize-packed-program.js';
import { decodeOnHost, viewPackedWords } from '../wire/payload.js';
import { channelAffineGeometry, ChannelDecodeProgram, ChannelDecodeVec4Program, runChannelAffine } from './channel-decode-program.js';
import { decodeOnTensorflow } from './tensorflow-decode.js';
import { WIRE_BYTES, wireByteLength, type PackedWireDtype, type WireDtype } from '../wire-dtypes.js';

/**
 * Kernel: a packed uint8, int8 or float16 payload (int32 words) -> float32 tensor, decoded and
 * normalized in one pass. Registered as a tfjs kernel so it appears in tf.profile tables and
 * is tracked by tf.tidy. (The name predates int8/float16; uint8 pixels are still its main use.)
 */
export const NORMALIZE_PACKED_BYTES = 'NormalizePackedBytes';

/** The device programs that can decode packed words on webgpu (host backends ignore it). */
export const DECODE_PROGRAMS = ['scalar', 'vec4'] as const;
export type DecodeProgram = (typeof DECODE_PROGRAMS)[number];

/**
 * Attributes of the kernel. `mean` and `std`: one number each for every element, or one per
 * channel (arrays as long as the last axis of `shape`: channels last, element i in channel i % C).
 */
export type NormalizePackedAttrs = AnyNormalization & {
  /** Output shape; its size is the number of elements carried by the words. */
  readonly shape: number[];
  /** Element type packed in the words; uint8 when absent. */
  readonly wire?: PackedWireDtype;
  /**
   * webgpu program: 'vec4' (default: 16-byte stores, 16 uint8 pixels per invocation, scalar
   * tail when the size is not a multiple of 4) or 'scalar' (the first program: one word per
   * invocation), kept so both can be measured side by side.
   */
  readonly program?: DecodeProgram;
  /** vec4 program tunables (workgroup size, vec4s per invocation), for measurement (scalar normalization only). */
  readonly vec4?: Vec4ProgramOptions;
  /**
   * How the vec4 program is dispatched: 'direct' (default: recorded into tfjs's command
   * encoder with a cached pipeline, uniforms and bind group, direct-dispatch.ts) or 'tfjs'
   * (runWebGPUProgram). Profiling (tf.profile) always takes runWebGPUProgram.
   */
  readonly dispatch?: DispatchPath;
};

export const DISPATCH_PATHS = ['direct', 'tfjs'] as const;
export type DispatchPath = (typeof DISPATCH_PATHS)[number];

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

function unpackArgs(args: KernelArgs): {
  packed: tf.TensorInfo;
  attrs: NormalizePackedAttrs;
  wire: PackedWireDtype;
  count: number;
  /** The normalization: scalar where every channel has the same constants, else per channel. */
  n: Normalization | ChannelNormalization;
} {
  const packed = args.inputs.packed;
  if (packed?.dtype !== 'int32') throw new Error(`${NORMALIZE_PACKED_BYTES} needs an int32 input named 'packed'`);
  const attrs = args.attrs as unknown as NormalizePackedAttrs;
  const wire = attrs.wire ?? 'uint8';
  const count = tf.util.sizeFromShape(attrs.shape);
  if (count * WIRE_BYTES[wire] > packed.shape.reduce((a, b) => a * b, 1) * 4) {
    throw new RangeError(`${NORMALIZE_PACKED_BYTES}: ${count} ${wire} elements do not fit in ${packed.shape[0]} words`);
  }
  const given = normalizationOf(attrs);
  if (isPerChannel(given)) checkChannelNormalization(given, attrs.shape[attrs.shape.length - 1]);
  return { packed, attrs, wire, count, n: uniformChannels(given) ?? given };
}

/**
 * Per-channel normalization on the GPU: uint8 over 16 or more elements by the
 * crop-mirror-normalize channel-affine program (the same computation, direct dispatch), int8
 * and float16 by ChannelDecodeVec4Program; then (size not a multiple of 4) ChannelDecodeProgram
 * over the last word(s) into the same output. ChannelDecodeProgram alone when asked for
 * ('scalar') or too small for 16-byte loads.
 */
function webgpuChannelKernel(
  backend: WebGPUBackend,
  packed: tf.TensorInfo,
  attrs: NormalizePackedAttrs,
  wire: PackedWireDtype,
  n: ChannelNormalization,
): tf.TensorInfo {
  const count = tf.util.sizeFromShape(attrs.shape);
  const words = packed.shape[0]!;
  if ((attrs.program ?? 'vec4') === 'scalar' || count < 16 || words < 4) {
    const program = new ChannelDecodeProgram(attrs.shape, wire, n);
    return backend.runWebGPUProgram(program, [packed], 'float32');
  }
  const out =
    wire === 'uint8'
      ? runChannelAffine(backend, packed, channelAffineGeometry(attrs.shape, n), (attrs.dispatch ?? 'direct') === 'direct')
      : backend.runWebGPUProgram(new ChannelDecodeVec4Program(attrs.shape, wire, n), [packed, packed], 'float32');
  const body = count - (count % 4);
  if (body < count) {
    const tail = new ChannelDecodeProgram(attrs.shape, wire, n, body / PER_WORD[wire]);
    backend.runWebGPUProgram(tail, [packed], 'float32', tail.uniformData(), out);
  }
  return out;
}

/**
 * On the GPU, decoded with shifts or unpack2x16float and normalized in one pass: the vec4
 * program over the first 4 * floor(size / 4) elements, then (size not a multiple of 4) the
 * scalar program over the last word(s) into the same output; or the scalar program alone
 * (asked for, or fewer than 4 words).
 */
function webgpuKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs, wire, count, n: given } = unpackArgs(args);
  const backend = args.backend as WebGPUBackend;
  if (isPerChannel(given)) return webgpuChannelKernel(backend, packed, attrs, wire, given);
  const n: Normalization = given;
  // The vec4 program binds the words as vec4s too: a binding needs at least 16 bytes.
  if ((attrs.program ?? 'vec4') === 'scalar' || count < 4 || packed.shape[0]! < 4) {
    return backend.runWebGPUProgram(new NormalizePackedBytesProgram(attrs.shape, wire, n), [packed], 'float32');
  }
  const program = new NormalizePackedVec4Program(attrs.shape, wire, n, attrs.vec4);
  const direct = (attrs.dispatch ?? 'direct') === 'direct' ? program.direct() : null;
  const dispatcher = DirectDispatcher.of(backend);
  const out =
    direct && dispatcher.canRun(direct.workgroups)
      ? dispatcher.run(direct, packed, attrs.shape)
      : backend.runWebGPUProgram(program, [packed, packed], 'float32');
  const body = count - (count % 4);
  if (body < count) {
    const tail = new NormalizePackedBytesProgram(attrs.shape, wire, n, body / PER_WORD[wire]);
    backend.runWebGPUProgram(tail, [packed], 'float32', tail.uniformData(), out);
  }
  return out;
}

/** On the cpu backend: reads the words in place and writes a new float32 array. */
function cpuKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs, wire, count, n } = unpackArgs(args);
  const backend = args.backend as MathBackendCPU;
  const words = backend.data.get(packed.dataId).values as Int32Array;
  return backend.makeTensorInfo(attrs.shape, 'float32', decodeOnHost(wire, viewPackedWords(words, wire, count), n));
}

/** On wasm: reads the words where they landed in the wasm heap and writes the output there. */
function wasmKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs, wire, count, n } = unpackArgs(args);
  const backend = args.backend as BackendWasm;
  // Output first: allocating it may grow the wasm memory, which detaches earlier heap views.
  const out = backend.makeOutput(attrs.shape, 'float32');
  const words = backend.typedArrayFromHeap(packed) as Int32Array;
  decodeOnHost(wire, viewPackedWords(words, wire, count), n, backend.typedArrayFromHeap(out) as Float32Array);
  return out;
}

/**
 * On tensorflow (tfjs-node's binding; run on TensorFlow 2.21's CPU build, the CUDA build
 * unverified): words still on the host never become a TF tensor: only their payload bytes are
 * handed to TensorFlow, unpadded, as a TF_UINT8 tensor decoded by TF ops; words already resident
 * there (residentWordsOnTensorflow) are reinterpreted in place (tensorflow-decode.ts).
 */
function tensorflowKernel(args: KernelArgs): tf.TensorInfo {
  const { packed, attrs, wire, count, n } = unpackArgs(args);
  return decodeOnTensorflow(args.backend as TfNodeBackend, packed, count * WIRE_BYTES[wire], wire, attrs.shape, n);
}

const kernels = { webgpu: webgpuKernel, cpu: cpuKernel, wasm: wasmKernel, tensorflow: tensorflowKernel } as const;

for (const [backendName, kernelFunc] of Object.entries(kernels)) {
  if (!tf.getKernel(NORMALIZE_PACKED_BYTES, backendName)) {
    tf.registerKernel({ kernelName: NORMALIZE_PACKED_BYTES, backendName, kernelFunc: kernelFunc as tf.KernelFunc });
  }
}

/**
 * Backends whose packed kernels take words still on the host and hand the device only the payload
 * bytes: tensorflow, where they become one TF_UINT8 tensor of exactly the payload (tensorflow-decode.ts).
 * Elsewhere the words themselves cross, the last one zero-padded.
 */
const PAYLOAD_ONLY_BACKENDS: ReadonlySet<string> = new Set(['tensorflow']);

/**
 * Bytes of data `count` elements of `dtype` put on the wire on the running backend when sent from
 * host values straight to its kernel (sendPayload, sendPacked, cropMirrorNormalize): the payload
 * padded to whole 32-bit words where the words cross (webgpu, cpu, wasm), the payload alone where
 * only its bytes do (tensorflow), 4 B an element for float32 everywhere. A staged upload
 * (uploadPackedBytes) sends whole words on every backend.
 */
export function packedBytesSent(dtype: WireDtype, count: number): number {
  return PAYLOAD_ONLY_BACKENDS.has(tf.getBackend()) ? count * WIRE_BYTES[dtype] : wireByteLength(dtype, count);
}

/** Whether the current backend can take packed payloads (else only 4-byte elements reach it). */
export function hasPackedKernel(): boolean {
  return tf.getKernel(NORMALIZE_PACKED_BYTES, tf.getBackend()) !== undefined;
}
