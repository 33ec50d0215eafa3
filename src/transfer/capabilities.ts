import type { BackendContext } from '../backend/types.js';
import { hasPackedKernel } from './normalize-packed-kernel.js';

/** One capability: whether the running backend has it, and what that means here. */
export interface Capability {
  readonly supported: boolean;
  readonly detail: string;
}

/**
 * What the running backend can do that the article's advice depends on, recorded in every run
 * record so that a skipped piece of advice is visible instead of silent.
 */
export function describeCapabilities(context: BackendContext): Record<string, Capability> {
  const features = context.adapter?.features ?? [];
  const packed = hasPackedKernel();
  return {
    'packed-uint8-upload': {
      supported: packed,
      detail: packed
        ? 'uint8 pixels cross as packed 32-bit words (1 byte per pixel) and are decoded by a device kernel'
        : 'no packed-bytes kernel on this backend: uint8 pixels are widened to int32 on the host (4 bytes per pixel)',
    },
    'timestamp-query': {
      supported: features.includes('timestamp-query'),
      detail: context.name === 'webgpu' ? 'GPU timestamps for per-kernel device times in profiles' : 'not a WebGPU backend: kernel times come from the host clock',
    },
    'shader-f16': {
      supported: features.includes('shader-f16'),
      detail: features.includes('shader-f16')
        ? 'the adapter offers half-precision shader arithmetic; tfjs 4.22 has no float16 dtype or autocast, so models still compute in float32'
        : 'no half-precision shader arithmetic on this backend; tfjs 4.22 has no float16 dtype or autocast either',
    },
  };
}
