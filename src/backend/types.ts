import type * as tf from '@tensorflow/tfjs-core';
import type { TransferCounter } from './transfer-counter.js';

/** Backends the harness can run on. */
export const BACKEND_NAMES = ['webgpu', 'wasm', 'cpu', 'tensorflow'] as const;
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

/** A started backend and what the harness knows about it. */
export interface BackendContext {
  readonly name: BackendName;
  /** Why this backend runs (auto selection, flag, env), in one sentence. */
  readonly reason: string;
  readonly adapter: AdapterDescription | null;
  /** tfjs-node-gpu only: whether TensorFlow found a CUDA device. */
  readonly isUsingGpuDevice: boolean | null;
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
