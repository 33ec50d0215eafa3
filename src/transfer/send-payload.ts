import * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../backend/types.js';
import { IDENTITY_NORMALIZATION, isIdentity, type Normalization } from './normalization.js';
import { hasPackedKernel, NORMALIZE_PACKED_BYTES, type NormalizePackedAttrs } from './normalize-packed-kernel.js';
import { packBytes } from './packed-bytes.js';
import { checkPayload, type Payload } from './payload.js';
import type { PackedWireDtype } from './wire-dtypes.js';

/** A payload of a type that crosses as packed words (uint8, int8, float16). */
export type PackedPayload = Extract<Payload, { dtype: PackedWireDtype }>;

/**
 * Sends a payload to the backend at its wire size and returns the float32 tensor decoded from it
 * there. float32 payloads cross as they are (4 bytes per element, uploaded now); uint8, int8 and
 * float16 cross as packed 32-bit words (1, 1 and 2 bytes per element, padded to a whole word)
 * and are decoded by the NormalizePackedBytes kernel, which also applies (x - mean) / std.
 * The caller syncs before stopping a clock and disposes the result.
 */
export function sendPayload(context: BackendContext, payload: Payload, n: Normalization = IDENTITY_NORMALIZATION): tf.Tensor {
  if (payload.dtype === 'float32') {
    checkPayload(payload);
    // float32 is what the host computed: it crosses as is, with no device pass to normalize in.
    if (!isIdentity(n)) throw new RangeError('a float32 payload is sent as is: normalize it on the host (encodePixels does)');
    const tensor = tf.tensor(payload.values, [...payload.shape], 'float32');
    context.upload(tensor);
    return tensor;
  }
  return sendPacked(payload, n);
}

/**
 * Sends a uint8, int8 or float16 payload as packed 32-bit words and decodes it on the device
 * (upload happens on first use by the kernel, inside this call on every backend).
 */
export function sendPacked(payload: PackedPayload, n: Normalization = IDENTITY_NORMALIZATION): tf.Tensor {
  checkPayload(payload);
  if (!hasPackedKernel()) {
    throw new Error(`backend ${tf.getBackend()} has no ${NORMALIZE_PACKED_BYTES} kernel: a ${payload.dtype} payload cannot be sent at its wire size`);
  }
  const shape = [...payload.shape];
  const words = tf.tensor1d(packBytes(payload.values).words, 'int32');
  const attrs: NormalizePackedAttrs = { shape, wire: payload.dtype, mean: n.mean, std: n.std };
  const out = tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed: words }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
  words.dispose();
  return out;
}
