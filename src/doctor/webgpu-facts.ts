import * as tf from '@tensorflow/tfjs';
import { softwareAdapterName } from '../backend/fingerprint.js';
import type { BackendContext } from '../backend/types.js';
import type { WebGpuBackendInternals } from '../backend/webgpu.js';
import { vulkanInstallHint } from '../backend/vulkan-hint.js';
import type { WebGpuFacts } from './checks.js';

/** GPUAdapterInfo as Dawn exposes it: getters, read one by one (JSON.stringify of it prints almost nothing). */
interface AdapterInfoLike {
  readonly vendor?: string;
  readonly architecture?: string;
  readonly device?: string;
  readonly description?: string;
  readonly isFallbackAdapter?: boolean;
}

function factsFrom(info: AdapterInfoLike, features: Iterable<string>, limits: GPUSupportedLimits): WebGpuFacts {
  const fields = { vendor: info.vendor ?? '', architecture: info.architecture ?? '', device: info.device ?? '', description: info.description ?? '' };
  return {
    ...fields,
    isSoftware: softwareAdapterName(fields) !== null,
    isFallbackAdapter: typeof info.isFallbackAdapter === 'boolean' ? info.isFallbackAdapter : null,
    features: [...features].sort(),
    maxBufferSize: limits.maxBufferSize,
    maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
  };
}

/**
 * Facts of the device tfjs computes on: GPUDevice.adapterInfo (Dawn implements it; tfjs keeps
 * only vendor and architecture of the adapter info it is given), the device's limits (the
 * harness requests the adapter's own, src/backend/webgpu.ts) and the adapter's features.
 */
export function runningWebGpuFacts(context: BackendContext): WebGpuFacts {
  const device = (tf.backend() as WebGpuBackendInternals).device as GPUDevice & { adapterInfo?: AdapterInfoLike };
  const info: AdapterInfoLike = device.adapterInfo ?? context.adapter ?? {};
  return factsFrom(info, context.adapter?.features ?? device.features, device.limits);
}

/**
 * Whether Dawn finds an adapter, without starting tfjs on it (when another backend runs):
 * a separate Dawn instance, asked for an adapter and nothing else.
 */
export async function probeWebGpu(): Promise<{ facts: WebGpuFacts | null; whyNot: string | null }> {
  try {
    const dawn = await import('webgpu');
    const adapter = await dawn.create([]).requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter)
      return {
        facts: null,
        whyNot: `Dawn found no WebGPU adapter (no usable Vulkan driver). ${vulkanInstallHint()}`,
      };
    return { facts: factsFrom(adapter.info as AdapterInfoLike, adapter.features as Iterable<string>, adapter.limits), whyNot: null };
  } catch (error) {
    return { facts: null, whyNot: `the 'webgpu' package (Dawn) failed to load: ${(error as Error).message}` };
  }
}
