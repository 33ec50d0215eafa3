import type * as tf from '@tensorflow/tfjs-core';
import type { TransferCounter } from './transfer-counter.js';

/** Backends the harness can run on; webgl runs only in a browser (gtp perf --browser chromium). */
export const BACKEND_NAMES = ['webgpu', 'wasm', 'cpu', 'tensorflow', 'webgl'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];
/** What a user may ask for: a backend, or `auto` (best one found). */
export const BACKEND_CHOICES = ['auto', ...BACKEND_NAMES] as const;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];

/** The GPU adapter behind a webgpu backend, as the driver reports it. */
export interface AdapterDescription {
  readonly vendor: string;
  readonly architecture: string;
  readonly device: string;
  readonly description: string;
  /** A CPU rasterizer (lavapipe/llvmpipe, SwiftShader): numbers describe it, not a GPU. */
  readonly isSoftware: boolean;
  /** Optional WebGPU features the adapter offers (e.g. shader-f16, timestamp-query). */
  readonly features: readonly string[];
}

/**
 * What a started backend can do, for the code that depends on it: branch on these, never on the
 * backend's name. Each start function (webgpu.ts, host-backends.ts, tensorflow.ts) sets them.
 */
export interface BackendCapabilities {
  /**
   * tfjs computes on a WebGPU GPUDevice: the harness can write device buffers (writeBuffer) and
   * run WGSL programs on it, buffers are bounded by its maxBufferSize, and tfjs pools the
   * buffers of disposed tensors.
   */
  readonly hasGpuDevice: boolean;
  /** The device has timestamp-query: tf.time and tf.profile report GPU kernel times, not host time. */
  readonly gpuTimestamps: boolean;
  /**
   * Making a tensor copies the host array before the call returns (webgpu: writeBuffer or a
   * staging buffer; wasm: into its heap), so the array may be reused for the next batch. The cpu
   * backend keeps a reference to it; tensorflow is not verified, so it says no.
   */
  readonly copiesHostArrays: boolean;
}

/** A started backend and what the harness knows about it. */
export interface BackendContext {
  readonly name: BackendName;
  /** Why this backend runs (auto selection, flag, env), in one sentence. */
  readonly reason: string;
  readonly adapter: AdapterDescription | null;
  /** tfjs-node-gpu only: whether TensorFlow found a CUDA device. */
  readonly isUsingGpuDevice: boolean | null;
  /** What this backend can do (BackendCapabilities). */
  readonly capabilities: BackendCapabilities;
  /** Counts the bytes that cross from the host into the backend. */
  readonly transfers: TransferCounter;
  /** Moves a tensor's data to the device now (webgpu uploads lazily, on first use). */
  upload(tensor: tf.Tensor): void;
  /**
   * Waits until all work that produced `tensor` has finished on the device.
   * Every timing calls this before stopping its clock.
   */
  sync(tensor: tf.Tensor): Promise<void>;
}
