/**
 * tfjs on a WebGPU device, wherever `navigator.gpu` comes from: Dawn in Node (webgpu.ts) or the
 * browser's own (browser-start.ts). No host access here: the hosts hand in their GPU and globals.
 */
import * as tf from '@tensorflow/tfjs';
import { recordCapabilities, runningBackendName } from './capabilities.js';
import { BackendUnavailableError } from './errors.js';
import { softwareAdapterName, type AdapterInfoFields } from './fingerprint.js';
import type { AdapterDescription, BackendContext } from './types.js';
import { installWebGpuTransferCounter, type WebGpuGlobals } from './webgpu-transfer-counter.js';

/** The part of tfjs-backend-webgpu's WebGPUBackend the harness drives directly. */
export interface WebGpuBackendInternals extends tf.KernelBackend {
  device: GPUDevice;
  ensureCommandEncoderReady(): void;
  endComputePassEncoder(): void;
  submitQueue(): void;
  uploadToGPU(dataId: object): void;
}

/** Reads GPUAdapterInfo's getters one by one (JSON.stringify of it prints almost nothing). */
export function describeAdapter(adapter: GPUAdapter): AdapterDescription {
  const info = adapter.info;
  const fields: AdapterInfoFields = {
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    device: info.device ?? '',
    description: info.description ?? '',
  };
  return { ...fields, isSoftware: softwareAdapterName(fields) !== null, features: [...adapter.features].sort() };
}

/**
 * Starts tfjs on a WebGPU device of `gpu`, with the byte counter installed on `globals` before the
 * device exists. Throws BackendUnavailableError (saying `noAdapter`) when no adapter can be had.
 */
export async function startWebGpuOn(gpu: GPU, globals: WebGpuGlobals, reason: string, noAdapter: string): Promise<BackendContext> {
  const transfers = installWebGpuTransferCounter(globals);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) {
    throw new BackendUnavailableError(noAdapter);
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
  // Read back what tfjs runs on: a backend that failed to start may leave tfjs on another one.
  if (!(await tf.setBackend('webgpu')) || runningBackendName() !== 'webgpu') {
    throw new BackendUnavailableError(`tfjs could not initialize its webgpu backend on this device (tfjs runs on ${runningBackendName() ?? 'nothing'})`);
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
