import * as tf from '@tensorflow/tfjs';
import type { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import {
  cropMirrorNormalizeOnHost,
  resolveCropMirrorNormalize,
  type CropMirrorNormalizeGeometry,
  type CropMirrorNormalizeSpec,
} from './crop-mirror-normalize.js';
import { runChannelAffine } from './channel-decode-program.js';
import { isChannelAffine } from '../webgpu/crop-mirror-normalize-flat-program.js';
import { CropMirrorNormalizeProgram } from '../webgpu/crop-mirror-normalize-program.js';
import { CropMirrorNormalizeRowsProgram, fitsRowsProgram } from '../webgpu/crop-mirror-normalize-rows-program.js';
import type { DispatchPath } from './normalize-packed-kernel.js';
import type { TfNodeBackend } from '../../backend/tensorflow-binding.js';
import { cropMirrorNormalizeOnTensorflow } from './tensorflow-decode.js';
import { unpackedView } from '../wire/packed-bytes.js';
import { packedWords, sendPacked, type UploadPath } from '../strategies/send-payload.js';

/**
 * Kernel: packed uint8 pixels (int32 words, 4 bytes each) -> cropped, mirrored, per-channel
 * normalized float32 tensor in HWC or CHW layout, in one pass. Registered as a tfjs kernel so
 * it shows in tf.profile tables and is tracked by tf.tidy.
 */
export const CROP_MIRROR_NORMALIZE = 'CropMirrorNormalize';

/**
 * webgpu programs: 'vec4' (default) picks the fastest that fits: the channel-affine program
 * for the whole frame unmirrored in input order, else the rows program (rows of 16 elements or
 * more), else the first one; 'scalar' is the first program (one invocation per element, six
 * integer divisions each), kept so both can be measured side by side.
 */
export const CROP_MIRROR_NORMALIZE_PROGRAMS = ['scalar', 'vec4'] as const;
export type CropMirrorNormalizeProgramChoice = (typeof CROP_MIRROR_NORMALIZE_PROGRAMS)[number];

/** Variants of the webgpu kernel, for measurement; host backends ignore them. */
export interface CropMirrorNormalizeOptions {
  readonly program?: CropMirrorNormalizeProgramChoice;
  /** How the channel-affine program is dispatched: 'direct' (default, direct-dispatch.ts) or 'tfjs' (runWebGPUProgram). */
  readonly dispatch?: DispatchPath;
  /** How `cropMirrorNormalize` uploads the words on webgpu: 'device-buffer' (default, writeBuffer) or 'tfjs'. */
  readonly upload?: UploadPath;
}

/** The kernel's attributes: the spec plus the program variants. */
export type CropMirrorNormalizeAttrs = CropMirrorNormalizeSpec & Pick<CropMirrorNormalizeOptions, 'program' | 'dispatch'>;

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

function unpackArgs(args: KernelArgs): { pixels: tf.TensorInfo; spec: CropMirrorNormalizeAttrs; geometry: CropMirrorNormalizeGeometry } {
  const pixels = args.inputs.pixels;
  if (pixels?.dtype !== 'int32') throw new Error(`${CROP_MIRROR_NORMALIZE} needs an int32 input named 'pixels'`);
  const spec = args.attrs as unknown as CropMirrorNormalizeAttrs;
  const geometry = resolveCropMirrorNormalize(spec);
  // Upload buffers may be larger than the words (device-upload.ts 'at-least'), never smaller.
  if (tf.util.sizeFromShape(pixels.shape) * 4 < geometry.inputSize) {
    throw new RangeError(`${CROP_MIRROR_NORMALIZE}: ${geometry.inputSize} pixel bytes do not fit in ${tf.util.sizeFromShape(pixels.shape)} words`);
  }
  return { pixels, spec, geometry };
}

/**
 * On the GPU: a vec4 program over the first 4 * floor(size / 4) elements, then (size not a
 * multiple of 4) the first program over the last 1-3 into the same output; or the first
 * program alone (asked for, rows shorter than 16 elements, fewer than 16 pixel bytes).
 */
function webgpuKernel(args: KernelArgs): tf.TensorInfo {
  const { pixels, spec, geometry: g } = unpackArgs(args);
  const backend = args.backend as WebGPUBackend;
  const size = tf.util.sizeFromShape(g.outputShape);
  const vec4 = (spec.program ?? 'vec4') === 'vec4';
  // The channel-affine program binds the words as vec4s too: a binding needs at least 16 bytes.
  const affine = vec4 && isChannelAffine(g) && size >= 16 && tf.util.sizeFromShape(pixels.shape) >= 4;
  let out: tf.TensorInfo;
  if (affine) {
    out = runChannelAffine(backend, pixels, g, (spec.dispatch ?? 'direct') === 'direct');
  } else if (vec4 && fitsRowsProgram(g)) {
    const program = new CropMirrorNormalizeRowsProgram(g);
    out = backend.runWebGPUProgram(program, [pixels], 'float32', program.uniformData());
  } else {
    const program = new CropMirrorNormalizeProgram(g);
    return backend.runWebGPUProgram(program, [pixels], 'float32', program.uniformData());
  }
  const body = size - (size % 4);
  if (body < size) {
    const tail = new CropMirrorNormalizeProgram(g, body);
    backend.runWebGPUProgram(tail, [pixels], 'float32', tail.uniformData(), out);
  }
  return out;
}

/** On the cpu backend: the CPU reference over the bytes in place. */
function cpuKernel(args: KernelArgs): tf.TensorInfo {
  const { pixels, spec } = unpackArgs(args);
  const backend = args.backend as MathBackendCPU;
  const g = resolveCropMirrorNormalize(spec);
  const words = backend.data.get(pixels.dataId).values as Int32Array;
  return backend.makeTensorInfo(g.outputShape, 'float32', cropMirrorNormalizeOnHost(unpackedView(words, g.inputSize), spec));
}

/** On wasm: the CPU reference from the wasm heap straight into the output there. */
function wasmKernel(args: KernelArgs): tf.TensorInfo {
  const { pixels, spec } = unpackArgs(args);
  const backend = args.backend as BackendWasm;
  const g = resolveCropMirrorNormalize(spec);
  // Output first: allocating it may grow the wasm memory, which detaches earlier heap views.
  const out = backend.makeOutput(g.outputShape, 'float32');
  const words = backend.typedArrayFromHeap(pixels) as Int32Array;
  cropMirrorNormalizeOnHost(unpackedView(words, g.inputSize), spec, backend.typedArrayFromHeap(out) as Float32Array);
  return out;
}

/**
 * On tensorflow (tfjs-node's binding): the pixel bytes handed to TensorFlow as one TF_UINT8
 * tensor (unpadded from host words; resident words reinterpreted in place), then TF's Slice,
 * ReverseV2, Cast, Sub, RealDiv, Transpose and Reshape on its device (tensorflow-decode.ts):
 * one tfjs kernel, several TensorFlow ops. Run on TensorFlow 2.21's CPU build; the CUDA build is unverified.
 */
function tensorflowKernel(args: KernelArgs): tf.TensorInfo {
  const { pixels, geometry } = unpackArgs(args);
  return cropMirrorNormalizeOnTensorflow(args.backend as TfNodeBackend, pixels, geometry);
}

const kernels = { webgpu: webgpuKernel, cpu: cpuKernel, wasm: wasmKernel, tensorflow: tensorflowKernel } as const;

for (const [backendName, kernelFunc] of Object.entries(kernels)) {
  if (!tf.getKernel(CROP_MIRROR_NORMALIZE, backendName)) {
    tf.registerKernel({ kernelName: CROP_MIRROR_NORMALIZE, backendName, kernelFunc: kernelFunc as tf.KernelFunc });
  }
}

/** Whether the current backend runs crop-mirror-normalize as one kernel (on tensorflow: one tfjs kernel of several TF ops). */
export function hasFusedCropMirrorNormalize(): boolean {
  return tf.getKernel(CROP_MIRROR_NORMALIZE, tf.getBackend()) !== undefined;
}

/**
 * Sends raw uint8 pixels (1 byte per pixel, packed words) and returns the float32 model input
 * of `spec`: one kernel where the backend has it (webgpu, wasm, cpu, tensorflow), else the
 * composed steps (cropMirrorNormalizeComposed). On webgpu the words go by writeBuffer into a
 * harness-owned buffer (device-upload.ts), as send-payload.ts sends them; elsewhere as a
 * tensor (zero-copy when aligned). The caller disposes the result.
 */
export function cropMirrorNormalize(pixels: Uint8Array, spec: CropMirrorNormalizeSpec, options: CropMirrorNormalizeOptions = {}): tf.Tensor {
  if (!hasFusedCropMirrorNormalize()) return cropMirrorNormalizeComposed(pixels, spec);
  const g = resolveCropMirrorNormalize(spec);
  if (pixels.length !== g.inputSize) throw new RangeError(`pixels has ${pixels.length} bytes, inputShape needs ${g.inputSize}`);
  const words = packedWords(pixels, options);
  const attrs: CropMirrorNormalizeAttrs = {
    ...spec,
    ...(options.program ? { program: options.program } : {}),
    ...(options.dispatch ? { dispatch: options.dispatch } : {}),
  };
  try {
    return tf.engine().runKernel(CROP_MIRROR_NORMALIZE, { pixels: words }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
  } finally {
    words.dispose();
  }
}

/**
 * The same result from separate steps, one kernel each: uint8 decode, slice, reverse, subtract,
 * divide, transpose. The unfused baseline, and the path for backends without the fused kernel.
 */
export function cropMirrorNormalizeComposed(pixels: Uint8Array, spec: CropMirrorNormalizeSpec): tf.Tensor {
  const g = resolveCropMirrorNormalize(spec);
  const { frames, inHeight, inWidth, channels: C, crop } = g;
  return tf.tidy(() => {
    const decoded = sendPacked({ dtype: 'uint8', values: pixels, shape: [frames, inHeight, inWidth, C] });
    let x = decoded.slice([0, crop.y, crop.x, 0], [frames, crop.height, crop.width, C]);
    if (g.mirror) x = x.reverse(2);
    x = x.sub(tf.tensor1d([...g.mean])).div(tf.tensor1d([...g.std]));
    if (g.layout === 'CHW') x = x.transpose([0, 3, 1, 2]);
    return x.reshape(g.outputShape);
  });
}
