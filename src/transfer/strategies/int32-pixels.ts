import * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../../backend/types.js';
import { ARTICLE_NORMALIZATION, type Normalization } from '../normalization.js';
import type { TransferStrategy } from './strategies.js';

/**
 * Raw pixels sent as an int32 tensor (one pixel per 32-bit value) and normalized on the device
 * by tfjs ops: the raw-pixel path of a backend with no uint8 tensor and no packed kernel
 * (tfjs-backend-webgl: its textures hold 32-bit values whatever the tensor's dtype, so this path
 * moves as many bytes as float32; shared/facts/browser-chromium.md). Normalized on the device,
 * so its id is device-normalize; its wire is 4 bytes a pixel.
 */
export function int32DeviceNormalize(context: BackendContext, n: Normalization = ARTICLE_NORMALIZATION): TransferStrategy {
  return {
    id: 'device-normalize',
    wireBytesPerPixel: () => Int32Array.BYTES_PER_ELEMENT,
    toDevice(batch) {
      const pixels = tf.tensor(Int32Array.from(batch.images), [...batch.shape], 'int32');
      context.upload(pixels);
      try {
        return tf.tidy(() => tf.div(tf.sub(tf.cast(pixels, 'float32'), n.mean), n.std)) as tf.Tensor4D;
      } finally {
        pixels.dispose();
      }
    },
  };
}
