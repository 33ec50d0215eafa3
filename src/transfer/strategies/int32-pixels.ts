import * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../../backend/types.js';
import { ARTICLE_NORMALIZATION, type Normalization } from '../normalization.js';
import type { TransferStrategy } from './strategies.js';

/**
 * Bytes tfjs-backend-webgl uploads besides the values when int32Normalized subtracts and divides
 * by two scalars: each becomes a texture of one RGBA float32 texel, 16 B (measured in Chromium 156,
 * SwiftShader, 2026-12-06: the same 32 B at every batch size of the sweep).
 */
export const WEBGL_SCALAR_BYTES = 2 * 16;

/**
 * Integer values (raw or centred pixels) sent as an int32 tensor, one value per 32-bit element,
 * and normalized on the device by tfjs ops: the path of a backend with no uint8 tensor and no
 * packed kernel (tfjs-backend-webgl: its textures hold 32-bit values whatever the tensor's dtype,
 * so this moves as many bytes as float32; shared/facts/browser-chromium.md).
 */
export function int32Normalized(context: BackendContext, values: ArrayLike<number>, shape: readonly number[], n: Normalization): tf.Tensor {
  const ints = tf.tensor(Int32Array.from(values), [...shape], 'int32');
  context.upload(ints);
  try {
    return tf.tidy(() => tf.div(tf.sub(tf.cast(ints, 'float32'), n.mean), n.std));
  } finally {
    ints.dispose();
  }
}

/**
 * Raw pixels sent as an int32 tensor and normalized on the device (int32Normalized): the raw-pixel
 * path of a backend with no uint8 tensor and no packed kernel. Normalized on the device, so its
 * id is device-normalize; its wire is 4 bytes a pixel.
 */
export function int32DeviceNormalize(context: BackendContext, n: Normalization = ARTICLE_NORMALIZATION): TransferStrategy {
  return {
    id: 'device-normalize',
    wireBytesPerPixel: () => Int32Array.BYTES_PER_ELEMENT,
    toDevice: (batch) => int32Normalized(context, batch.images, batch.shape, n) as tf.Tensor4D,
  };
}
