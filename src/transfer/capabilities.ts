import * as tf from '@tensorflow/tfjs';
import type { BackendContext, BackendName } from '../backend/types.js';
import type { WebGpuBackendInternals } from '../backend/webgpu-device.js';
import { hasPackedKernel } from './kernels/normalize-packed-kernel.js';
import { hasFusedCropMirrorNormalize } from './kernels/crop-mirror-normalize-kernel.js';

/** One capability: whether the running backend has it, and what that means here. */
export interface Capability {
  readonly supported: boolean;
  readonly detail: string;
}

// Where packed payloads are decoded on each backend, in words.
const DECODED_BY: Record<BackendName, string> = {
  webgpu: 'a WGSL program on the GPU device',
  wasm: 'a host kernel reading the wasm heap (on wasm the "device" is the CPU)',
  cpu: 'a host kernel (on cpu the "device" is the CPU)',
  tensorflow: 'TensorFlow ops (TF_UINT8 tensor, Bitcast, Cast) on its device; written against tfjs-node 4.22, NOT verified in CI',
  webgl: 'not at all: tfjs-backend-webgl has no uint8 tensor and no packed kernel (pixels go up as 32-bit texels)',
};

/** Whether the GPUDevice tfjs computes on has the shader-f16 feature enabled (webgpu only). */
function deviceHasShaderF16(context: BackendContext): boolean {
  return context.capabilities.hasGpuDevice && (tf.backend() as WebGpuBackendInternals).device.features.has('shader-f16');
}

/**
 * What the running backend can do that the article's advice depends on, recorded in every run
 * record so that a skipped piece of advice is visible instead of silent. Half precision (article
 * section 13) is split into what exists: a float16 payload on the wire, the adapter's
 * shader-f16 feature, and mixed-precision compute (which tfjs does not have).
 */
export function describeCapabilities(context: BackendContext): Record<string, Capability> {
  const features = context.adapter?.features ?? [];
  const packed = hasPackedKernel();
  const decodedBy = DECODED_BY[context.name];
  const adapterF16 = features.includes('shader-f16');
  const deviceF16 = deviceHasShaderF16(context);
  const fused = hasFusedCropMirrorNormalize();
  return {
    'fused-crop-mirror-normalize': {
      supported: fused,
      detail: fused
        ? 'crop, mirror, per-channel normalize and layout change run as one device kernel'
        : 'no fused kernel on this backend: crop-mirror-normalize runs as separate tfjs ops (one pass each)',
    },
    'packed-uint8-upload': {
      supported: packed,
      detail: packed
        ? `uint8 pixels cross at 1 byte per pixel (packed 32-bit words) and are decoded by ${decodedBy}`
        : 'no packed-bytes kernel on this backend: uint8 pixels cannot cross at 1 byte per pixel',
    },
    'int8-payload': {
      supported: packed,
      detail: packed
        ? `int8 values cross at 1 byte per element and are sign-extended to float32 by ${decodedBy}`
        : 'no packed-bytes kernel on this backend: int8 values would cross as int32 (4 bytes)',
    },
    'float16-payload': {
      supported: packed,
      detail: packed
        ? `float16 values (host-rounded, ties to even) cross at 2 bytes per element and are widened exactly to float32 by ${decodedBy}` +
          (context.capabilities.hasGpuDevice ? ' (unpack2x16float: core WGSL, no shader-f16 needed)' : '')
        : 'no packed-bytes kernel on this backend: float16 values would cross as float32 (4 bytes)',
    },
    'timestamp-query': {
      supported: context.capabilities.gpuTimestamps,
      detail: context.capabilities.hasGpuDevice
        ? 'GPU timestamps for per-kernel device times in profiles'
        : 'not a WebGPU backend: kernel times come from the host clock',
    },
    'shader-f16': {
      supported: adapterF16,
      detail: !adapterF16
        ? 'no half-precision shader arithmetic on this backend'
        : deviceF16
          ? 'the adapter offers half-precision shader arithmetic and the device has it enabled; tfjs 4.22 has no kernels that use it'
          : 'the adapter offers half-precision shader arithmetic, but the device tfjs computes on does not enable it (requested as tfjs-backend-webgpu 4.22 requests its own: timestamp-query only) and no tfjs kernel uses it',
    },
    'mixed-precision': {
      supported: false,
      detail:
        `tfjs ${tf.version_core} has no float16 dtype and no autocast (backend floatPrecision() = ${tf.backend().floatPrecision()}): ` +
        "models compute in float32 whatever crossed the wire, so the article's mixed-precision advice (section 13) cannot be applied; float16 helps only on the wire",
    },
  };
}
