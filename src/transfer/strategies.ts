import type * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../backend/types.js';
import { ARTICLE_NORMALIZATION, type Normalization } from './normalization.js';
import { encodePixels } from './payload.js';
import { sendPacked, sendPayload } from './send-payload.js';
import { WIRE_BYTES } from './wire-dtypes.js';

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

/** Article section 2: normalize on the CPU, send float32 (4 bytes per pixel). */
export function cpuNormalize(context: BackendContext, n: Normalization = ARTICLE_NORMALIZATION): TransferStrategy {
  return {
    id: 'cpu-normalize',
    wireBytesPerPixel: () => WIRE_BYTES.float32,
    toDevice(batch) {
      const { payload, deviceNormalization } = encodePixels('float32', batch.images, batch.shape, n);
      return sendPayload(context, payload, deviceNormalization) as tf.Tensor4D;
    },
  };
}

/**
 * Article section 4: send the raw bytes (packed 32-bit words, 1 byte per pixel) and normalize
 * on the device: the NormalizePackedBytes kernel on webgpu, wasm and cpu; a TF_UINT8 tensor cast
 * by TensorFlow on tensorflow (unverified in CI).
 */
export function deviceNormalize(n: Normalization = ARTICLE_NORMALIZATION): TransferStrategy {
  return {
    id: 'device-normalize',
    wireBytesPerPixel: () => WIRE_BYTES.uint8,
    toDevice(batch) {
      return sendPacked({ dtype: 'uint8', values: batch.images, shape: batch.shape }, n) as tf.Tensor4D;
    },
  };
}

