import type * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../../backend/types.js';
import { hasPackedKernel } from '../kernels/normalize-packed-kernel.js';
import { uniformChannels } from '../normalization.js';
import { decodeOnHost, type EncodedPixels } from '../wire/payload.js';
import { WIRE_BYTES, type WireDtype } from '../wire-dtypes.js';
import { int32Normalized } from './int32-pixels.js';
import { sendFloat32, sendPayload } from './send-payload.js';

/** How a wire type crosses to the active backend: the tensor it goes up as, and bytes per element. */
export interface WireCrossing {
  /** 'packed' (32-bit words decoded by NormalizePackedBytes), 'int32' or 'float32'. */
  readonly as: 'packed' | 'int32' | 'float32';
  readonly bytesPerElement: number;
  /** What moves, in words, for a metric's detail. */
  readonly says: string;
}

/**
 * What `dtype` really moves on the active backend. With the packed kernel (webgpu, cpu, wasm,
 * tensorflow) each type crosses at its wire size (1/1/2/4 B). Without it (tfjs-backend-webgl:
 * no uint8, int8 or float16 tensor, and textures of 32-bit values) the integer types go up as
 * int32 and float16 as float32 (widened on the host): 4 B an element whatever the type.
 */
export function wireCrossing(dtype: WireDtype): WireCrossing {
  if (hasPackedKernel()) {
    const as = dtype === 'float32' ? 'float32' : 'packed';
    return {
      as,
      bytesPerElement: WIRE_BYTES[dtype],
      says: `${dtype} at ${WIRE_BYTES[dtype]} B an element${as === 'packed' ? ' (packed 32-bit words, decoded on the device)' : ''}`,
    };
  }
  if (dtype === 'uint8' || dtype === 'int8') {
    return {
      as: 'int32',
      bytesPerElement: 4,
      says: `${dtype} values as an int32 tensor, 4 B an element (this backend has no ${dtype} tensor), normalized on the device`,
    };
  }
  const widened = dtype === 'float16' ? ' (widened on the host: this backend has no float16 tensor)' : '';
  return { as: 'float32', bytesPerElement: 4, says: `${dtype} values as a float32 tensor, 4 B an element${widened}` };
}

/**
 * Sends one encoded batch the way `wireCrossing` says and returns the float32 tensor of the model
 * input on the device (the caller syncs and disposes). Every way yields the same values within
 * float32 rounding: (x - mean) / std of the raw pixels.
 */
export function sendWireType(context: BackendContext, encoded: EncodedPixels): tf.Tensor {
  const { payload, deviceNormalization } = encoded;
  const crossing = wireCrossing(payload.dtype);
  if (crossing.as !== 'int32') {
    if (crossing.as === 'packed' || payload.dtype === 'float32') return sendPayload(context, payload, deviceNormalization);
    return sendFloat32(context, decodeOnHost(payload.dtype, payload.values), [...payload.shape]);
  }
  const n = uniformChannels(deviceNormalization);
  if (!n) throw new RangeError(`sendWireType: ${payload.dtype} as int32 takes one mean and std for all channels`);
  return int32Normalized(context, payload.values, payload.shape, n);
}
