import * as tf from '@tensorflow/tfjs';
import { activeCapabilities } from '../../backend/capabilities.js';
import type { BackendContext } from '../../backend/types.js';
import { DeviceUploadBuffers } from '../webgpu/device-upload.js';
import { IDENTITY_NORMALIZATION, isIdentity, normalizationOf, uniformChannels, type AnyNormalization } from '../normalization.js';
import {
  hasPackedKernel,
  NORMALIZE_PACKED_BYTES,
  type DecodeProgram,
  type DispatchPath,
  type NormalizePackedAttrs,
} from '../kernels/normalize-packed-kernel.js';
import type { Vec4ProgramOptions } from '../webgpu/normalize-packed-program.js';
import { packBytes } from '../wire/packed-bytes.js';
import { checkPayload, type Payload } from '../wire/payload.js';
import type { PackedWireDtype } from '../wire-dtypes.js';

/** A payload of a type that crosses as packed words (uint8, int8, float16). */
export type PackedPayload = Extract<Payload, { dtype: PackedWireDtype }>;

/**
 * How the bytes reach a webgpu device (other backends always take tf.tensor):
 * - 'device-buffer' (default): `queue.writeBuffer` into a device buffer the harness owns and
 *   reuses (see device-upload.ts), wrapped as a zero-copy tensor;
 * - 'tfjs': `tf.tensor` and tfjs's own upload (a staging buffer per upload, copied into a
 *   pooled buffer), the first version of the harness, kept to measure the difference.
 */
export const UPLOAD_PATHS = ['device-buffer', 'tfjs'] as const;
export type UploadPath = (typeof UPLOAD_PATHS)[number];

/** Variants of the send path; the defaults are the fastest measured. */
export interface SendOptions {
  readonly upload?: UploadPath;
  /** webgpu decode program for packed payloads (NormalizePackedAttrs.program). */
  readonly program?: DecodeProgram;
  /** vec4 program tunables (NormalizePackedAttrs.vec4), for measurement. */
  readonly vec4?: Vec4ProgramOptions;
  /** How the vec4 program is dispatched (NormalizePackedAttrs.dispatch). */
  readonly dispatch?: DispatchPath;
}

function usesDeviceBuffers(options: Pick<SendOptions, 'upload'>): boolean {
  return (options.upload ?? 'device-buffer') === 'device-buffer' && activeCapabilities().hasGpuDevice;
}

/**
 * Sends a payload to the backend at its wire size and returns the float32 tensor decoded from it
 * there. float32 payloads cross as they are (4 bytes per element, uploaded now); uint8, int8 and
 * float16 cross as packed 32-bit words (1, 1 and 2 bytes per element, padded to a whole word)
 * and are decoded by the NormalizePackedBytes kernel, which also applies (x - mean) / std (one
 * pair for all, or per channel: channels last, one entry per entry of the shape's last axis).
 * The caller syncs before stopping a clock and disposes the result.
 */
export function sendPayload(context: BackendContext, payload: Payload, n: AnyNormalization = IDENTITY_NORMALIZATION, options: SendOptions = {}): tf.Tensor {
  if (payload.dtype === 'float32') {
    checkPayload(payload);
    // float32 is what the host computed: it crosses as is, with no device pass to normalize in.
    const uniform = uniformChannels(n);
    if (!uniform || !isIdentity(uniform)) throw new RangeError('a float32 payload is sent as is: normalize it on the host (encodePixels does)');
    return sendFloat32(context, payload.values, [...payload.shape], options);
  }
  return sendPacked(payload, n, options);
}

/**
 * Sends float32 values as a tensor resident on the device, uploaded now. On webgpu by default
 * it is written into a harness-owned buffer of exactly its size, which becomes the tensor's
 * storage (zero-copy; reused for a later upload only once no tensor refers to it). The values
 * are copied before this returns: the caller may reuse the array.
 */
export function sendFloat32(context: BackendContext, values: Float32Array, shape: number[], options: SendOptions = {}): tf.Tensor {
  if (usesDeviceBuffers(options) && values.length > 0) {
    return DeviceUploadBuffers.current().upload([values], shape, 'float32', 'exact');
  }
  const tensor = tf.tensor(values, shape, 'float32');
  context.upload(tensor);
  return tensor;
}

/** The payload's bytes as whole 32-bit words for writeBuffer: a view of all whole words, then the last partial word padded with zeros. */
function wordParts(values: PackedPayload['values']): ArrayBufferView[] {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const whole = bytes.byteLength - (bytes.byteLength % 4);
  const parts: ArrayBufferView[] = whole > 0 ? [bytes.subarray(0, whole)] : [];
  if (whole < bytes.byteLength) {
    const last = new Uint8Array(4);
    last.set(bytes.subarray(whole));
    parts.push(last);
  }
  return parts;
}

/**
 * A payload's bytes as an int32 tensor of whole 32-bit words (the last one zero-padded): on
 * webgpu by writeBuffer into a harness-owned buffer (resident at once), elsewhere, or with
 * `upload: 'tfjs'`, a tfjs tensor (zero-copy when aligned) that reaches the device on first use.
 */
export function packedWords(values: PackedPayload['values'], options: Pick<SendOptions, 'upload'> = {}): tf.Tensor {
  const wordCount = Math.ceil(values.byteLength / 4);
  return usesDeviceBuffers(options) && wordCount > 0
    ? DeviceUploadBuffers.current().upload(wordParts(values), [wordCount], 'int32', 'at-least')
    : tf.tensor1d(packBytes(values).words, 'int32');
}

/**
 * Sends a uint8, int8 or float16 payload as packed 32-bit words and decodes it on the device
 * (upload happens inside this call on every backend: on webgpu by writeBuffer into the
 * harness's buffer, or with `upload: 'tfjs'` on first use by the kernel).
 */
export function sendPacked(payload: PackedPayload, n: AnyNormalization = IDENTITY_NORMALIZATION, options: SendOptions = {}): tf.Tensor {
  checkPayload(payload);
  if (!hasPackedKernel()) {
    throw new Error(`backend ${tf.getBackend()} has no ${NORMALIZE_PACKED_BYTES} kernel: a ${payload.dtype} payload cannot be sent at its wire size`);
  }
  const shape = [...payload.shape];
  const words = packedWords(payload.values, options);
  const attrs: NormalizePackedAttrs = {
    shape,
    wire: payload.dtype,
    ...normalizationOf(n),
    ...(options.program ? { program: options.program } : {}),
    ...(options.vec4 ? { vec4: options.vec4 } : {}),
    ...(options.dispatch ? { dispatch: options.dispatch } : {}),
  };
  try {
    return tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed: words }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
  } finally {
    words.dispose();
  }
}
