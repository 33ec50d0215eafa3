import type * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../../backend/types.js';
import { ARTICLE_NORMALIZATION, normalizationTable, normalizeOnHost, normalizeWithTable, type Normalization } from '../normalization.js';
import { sendFloat32, sendPacked, type SendOptions, type UploadPath } from './send-payload.js';
import { WIRE_BYTES } from '../wire-dtypes.js';

export const STRATEGY_IDS = ['cpu-normalize', 'device-normalize'] as const;
export type StrategyId = (typeof STRATEGY_IDS)[number];

/** Raw pixels of a batch: one contiguous [B, H, W, C] uint8 buffer. */
export interface PixelBatch {
  readonly images: Uint8Array;
  readonly shape: readonly [number, number, number, number];
}

/** One way to turn a batch of raw pixels into a normalized float32 tensor on the device. */
export interface TransferStrategy {
  readonly id: StrategyId;
  /** What crosses to the device, per pixel, on the current backend. */
  wireBytesPerPixel(): number;
  /**
   * Normalizes and moves the batch; returns the float32 [B,H,W,C] tensor, resident on the
   * device (upload done or enqueued). The caller syncs before stopping a clock.
   */
  toDevice(batch: PixelBatch): tf.Tensor4D;
}

/**
 * How cpu-normalize prepares the float32 values on the host:
 * - 'table' (default): a 256-entry float32 lookup table into an array reused between batches
 *   (where the backend copies the values before toDevice returns: webgpu, wasm);
 * - 'arithmetic': (x - mean) / std per pixel into a new array per batch, the first version.
 * Both give the same float32 values.
 */
export type HostPreparation = 'table' | 'arithmetic';

/** Variants of cpu-normalize; the defaults are the fastest measured. */
export interface CpuNormalizeOptions {
  readonly prepare?: HostPreparation;
  /** webgpu upload path of the float32 values (send-payload.ts). */
  readonly upload?: UploadPath;
}

/** Article section 2: normalize on the CPU, send float32 (4 bytes per pixel). */
export function cpuNormalize(context: BackendContext, n: Normalization = ARTICLE_NORMALIZATION, options: CpuNormalizeOptions = {}): TransferStrategy {
  const prepare = options.prepare ?? 'table';
  const upload = options.upload ?? 'device-buffer';
  const table = normalizationTable(n);
  let reused = new Float32Array(0);
  const hostValues = (pixels: Uint8Array): Float32Array => {
    if (prepare === 'arithmetic') return normalizeOnHost(pixels, n);
    if (!context.capabilities.copiesHostArrays) return normalizeWithTable(pixels, table, new Float32Array(pixels.length));
    if (reused.length !== pixels.length) reused = new Float32Array(pixels.length);
    return normalizeWithTable(pixels, table, reused);
  };
  return {
    id: 'cpu-normalize',
    wireBytesPerPixel: () => WIRE_BYTES.float32,
    toDevice(batch) {
      const count = batch.shape.reduce((a, b) => a * b, 1);
      if (batch.images.length !== count) throw new RangeError(`shape [${batch.shape.join(', ')}] has ${count} elements, the batch ${batch.images.length}`);
      return sendFloat32(context, hostValues(batch.images), [...batch.shape], { upload }) as tf.Tensor4D;
    },
  };
}

/**
 * Article section 4: send the raw bytes (packed 32-bit words, 1 byte per pixel) and normalize
 * on the device: the NormalizePackedBytes kernel on webgpu, wasm and cpu; a TF_UINT8 tensor cast
 * by TensorFlow on tensorflow (unverified in CI). On webgpu by default the words go by
 * writeBuffer into a harness-owned buffer and the vec4 program decodes them; `options` selects
 * the first versions (tfjs upload, scalar program) for side-by-side measurement.
 */
export function deviceNormalize(n: Normalization = ARTICLE_NORMALIZATION, options: SendOptions = {}): TransferStrategy {
  return {
    id: 'device-normalize',
    wireBytesPerPixel: () => WIRE_BYTES.uint8,
    toDevice(batch) {
      return sendPacked({ dtype: 'uint8', values: batch.images, shape: batch.shape }, n, options) as tf.Tensor4D;
    },
  };
}
