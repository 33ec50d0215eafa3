import * as tf from '@tensorflow/tfjs';
import { tmpdir } from 'node:os';
import { recordCapabilities } from './capabilities.js';
import { BackendUnavailableError } from './errors.js';
import { softwareAdapterName, type AdapterInfoFields } from './fingerprint.js';
import type { AdapterDescription, BackendContext } from './types.js';
import { installWebGpuTransferCounter, type WebGpuGlobals } from './webgpu-transfer-counter.js';
import { vulkanInstallHint } from './vulkan-hint.js';

/** The part of tfjs-backend-webgpu's WebGPUBackend the harness drives directly. */
export interface WebGpuBackendInternals extends tf.KernelBackend {
  device: GPUDevice;
  ensureCommandEncoderReady(): void;
  endComputePassEncoder(): void;
  submitQueue(): void;
  uploadToGPU(dataId: object): void;
}

/** What to do without an adapter, as it can be done where this runs (vulkan-hint.ts). */
const SETUP_HINT = `${vulkanInstallHint()} Or run on another backend: --backend wasm.`;

/** Reads GPUAdapterInfo's getters one by one (JSON.stringify of it prints almost nothing). */
function describeAdapter(adapter: GPUAdapter): AdapterDescription {
  const info = adapter.info;
  const fields: AdapterInfoFields = {
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    device: info.device ?? '',
    description: info.description ?? '',
  };
  return { ...fields, isSoftware: softwareAdapterName(fields) !== null, features: [...adapter.features].sort() };
}

/** Gives Node the WebGPU globals of the `webgpu` package (Dawn), without clobbering Node's own navigator. */
async function loadDawn(): Promise<{ gpu: GPU; globals: WebGpuGlobals }> {
  // The Vulkan loader prints an error line when XDG_RUNTIME_DIR is unset; any writable dir will do.
  process.env.XDG_RUNTIME_DIR ??= tmpdir();
  let dawn: typeof import('webgpu');
  try {
    dawn = await import('webgpu');
  } catch (error) {
    throw new BackendUnavailableError(`the 'webgpu' package (Dawn for Node) failed to load: ${String(error)}`);
  }
  const globals = dawn.globals as WebGpuGlobals & Record<string, unknown>;
  for (const [key, value] of Object.entries(globals)) {
    if (!(key in globalThis)) Object.defineProperty(globalThis, key, { value, configurable: true, writable: true });
  }
  // Timestamps are quantized to 65.536 us by default; the profiles want real kernel times.
  const gpu = dawn.create(['disable-dawn-features=timestamp_quantization']);
  const nav = (globalThis as { navigator?: object }).navigator;
  if (nav) Object.defineProperty(nav, 'gpu', { value: gpu, configurable: true });
  else Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true, writable: true });
  return { gpu, globals };
}

/**
 * Starts tfjs on a real WebGPU device through Dawn, with the byte counter installed before the
 * device exists. Throws BackendUnavailableError when no adapter can be had.
 */
export async function startWebGpu(reason: string): Promise<BackendContext> {
  const { gpu, globals } = await loadDawn();
  const transfers = installWebGpuTransferCounter(globals);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) {
    throw new BackendUnavailableError(`Dawn found no WebGPU adapter (no usable Vulkan driver). ${SETUP_HINT}`);
  }
  const description = describeAdapter(adapter);
  // The same device request as tfjs-backend-webgpu's own factory (src/base.ts), made here so
  // the harness holds the adapter for its fingerprint.
  const limits = adapter.limits;
  const device = await adapter.requestDevice({
    requiredFeatures: adapter.features.has('timestamp-query') ? ['timestamp-query'] : [],
    requiredLimits: {
      maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
      maxComputeWorkgroupsPerDimension: limits.maxComputeWorkgroupsPerDimension,
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxBufferSize: limits.maxBufferSize,
      maxComputeWorkgroupSizeX: limits.maxComputeWorkgroupSizeX,
      maxComputeInvocationsPerWorkgroup: limits.maxComputeInvocationsPerWorkgroup,
    },
  });
  const { WebGPUBackend } = await import('@tensorflow/tfjs-backend-webgpu');
  // Importing the package registered its own factory (when navigator.gpu existed): replace it.
  if (tf.findBackendFactory('webgpu')) tf.removeBackend('webgpu');
  tf.registerBackend('webgpu', () => new WebGPUBackend(device, adapter.info));
  if (!(await tf.setBackend('webgpu'))) {
    throw new BackendUnavailableError('tfjs could not initialize its webgpu backend on the Dawn device');
  }
  // Small ops would otherwise run on the CPU, and the point is to measure the device.
  tf.env().set('WEBGPU_CPU_FORWARD', false);
  const backend = tf.backend() as WebGpuBackendInternals;
  return {
    name: 'webgpu',
    reason,
    adapter: description,
    isUsingGpuDevice: null,
    capabilities: recordCapabilities({
      hasGpuDevice: true,
      // The device was requested with timestamp-query whenever the adapter has it.
      gpuTimestamps: description.features.includes('timestamp-query'),
      copiesHostArrays: true,
    }),
    transfers,
    upload(tensor) {
      backend.uploadToGPU(tensor.dataId);
    },
    async sync() {
      // tfjs batches dispatches in an open encoder: submit it, or the queue may look idle.
      backend.ensureCommandEncoderReady();
      backend.endComputePassEncoder();
      backend.submitQueue();
      await backend.device.queue.onSubmittedWorkDone();
    },
  };
}
