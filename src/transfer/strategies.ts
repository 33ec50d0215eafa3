import * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../backend/types.js';
import { ARTICLE_NORMALIZATION, normalizeOnHost, type Normalization } from './normalization.js';
import { hasPackedKernel, NORMALIZE_PACKED_BYTES } from './normalize-packed-kernel.js';
import { packBytes } from './packed-bytes.js';

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
    wireBytesPerPixel: () => 4,
    toDevice(batch) {
      const tensor = tf.tensor4d(normalizeOnHost(batch.images, n), [...batch.shape], 'float32');
      context.upload(tensor);
      return tensor;
    },
  };
}

/**
 * Article section 4: send the raw bytes (viewed as 32-bit words, 1 byte per pixel) and
 * normalize on the device. Where the backend has no packed kernel (tensorflow, for now), the
 * pixels are widened to int32 on the host and normalized by tfjs ops: 4 bytes per pixel, and
 * `wireBytesPerPixel` says so.
 */
export function deviceNormalize(n: Normalization = ARTICLE_NORMALIZATION): TransferStrategy {
  const packed = hasPackedKernel();
  return {
    id: 'device-normalize',
    wireBytesPerPixel: () => (packed ? 1 : 4),
    toDevice(batch) {
      const shape = [...batch.shape];
      if (!packed) {
        return tf.tidy(() => tf.tensor4d(Int32Array.from(batch.images), batch.shape as [number, number, number, number], 'int32').toFloat().sub(n.mean).div(n.std)) as tf.Tensor4D;
      }
      const words = tf.tensor1d(packBytes(batch.images).words, 'int32');
      const attrs = { shape, mean: n.mean, std: n.std };
      const out = tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed: words }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor4D;
      words.dispose();
      return out;
    },
  };
}

/** Both strategies, in the article's order. */
export function allStrategies(context: BackendContext): readonly TransferStrategy[] {
  return [cpuNormalize(context), deviceNormalize()];
}
