import * as tf from '@tensorflow/tfjs';
import type { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import { cropMirrorNormalizeOnHost, resolveCropMirrorNormalize, type CropMirrorNormalizeSpec } from './crop-mirror-normalize.js';
import { CropMirrorNormalizeProgram } from './crop-mirror-normalize-program.js';
import { packBytes, unpackedView } from './packed-bytes.js';
import { sendPacked } from './send-payload.js';

/**
 * Kernel: packed uint8 pixels (int32 words, 4 bytes each) -> cropped, mirrored, per-channel
 * normalized float32 tensor in HWC or CHW layout, in one pass. Registered as a tfjs kernel so
 * it shows in tf.profile tables and is tracked by tf.tidy.
 */
export const CROP_MIRROR_NORMALIZE = 'CropMirrorNormalize';

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

function unpackArgs(args: KernelArgs): { pixels: tf.TensorInfo; spec: CropMirrorNormalizeSpec } {
  const pixels = args.inputs.pixels;
  if (!pixels || pixels.dtype !== 'int32') throw new Error(`${CROP_MIRROR_NORMALIZE} needs an int32 input named 'pixels'`);
  return { pixels, spec: args.attrs as unknown as CropMirrorNormalizeSpec };
}

/** On the GPU: the fused WGSL program, one invocation per output element. */
function webgpuKernel(args: KernelArgs): tf.TensorInfo {
  const { pixels, spec } = unpackArgs(args);
  const program = new CropMirrorNormalizeProgram(resolveCropMirrorNormalize(spec));
  return (args.backend as WebGPUBackend).runWebGPUProgram(program, [pixels], 'float32', program.uniformData());
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

const kernels = { webgpu: webgpuKernel, cpu: cpuKernel, wasm: wasmKernel } as const;

for (const [backendName, kernelFunc] of Object.entries(kernels)) {
  if (!tf.getKernel(CROP_MIRROR_NORMALIZE, backendName)) {
    tf.registerKernel({ kernelName: CROP_MIRROR_NORMALIZE, backendName, kernelFunc: kernelFunc as tf.KernelFunc });
  }
}

/** Whether the current backend runs crop-mirror-normalize as one fused kernel. */
export function hasFusedCropMirrorNormalize(): boolean {
  return tf.getKernel(CROP_MIRROR_NORMALIZE, tf.getBackend()) !== undefined;
}

/**
 * Sends raw uint8 pixels (1 byte per pixel, packed words, zero-copy when aligned) and returns the
 * float32 model input of `spec`: one fused kernel where the backend has it (webgpu, wasm, cpu),
 * else (tensorflow) the uint8 decode followed by tfjs ops. The caller disposes the result.
 */
export function cropMirrorNormalize(pixels: Uint8Array, spec: CropMirrorNormalizeSpec): tf.Tensor {
  if (!hasFusedCropMirrorNormalize()) return cropMirrorNormalizeComposed(pixels, spec);
  const g = resolveCropMirrorNormalize(spec);
  if (pixels.length !== g.inputSize) throw new RangeError(`pixels has ${pixels.length} bytes, inputShape needs ${g.inputSize}`);
  const words = tf.tensor1d(packBytes(pixels).words, 'int32');
  const out = tf.engine().runKernel(CROP_MIRROR_NORMALIZE, { pixels: words }, spec as unknown as tf.NamedAttrMap) as tf.Tensor;
  words.dispose();
  return out;
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
