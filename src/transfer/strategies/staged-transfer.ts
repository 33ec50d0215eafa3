import * as tf from '@tensorflow/tfjs';
import type { TfNodeBackend } from '../../backend/tensorflow-binding.js';
import type { BackendContext } from '../../backend/types.js';
import { CROP_MIRROR_NORMALIZE, hasFusedCropMirrorNormalize } from '../kernels/crop-mirror-normalize-kernel.js';
import { resolveCropMirrorNormalize, type CropMirrorNormalizeSpec } from '../kernels/crop-mirror-normalize.js';
import {
  isPerChannel,
  normalizationOf,
  normalizeChannelsOnHost,
  type AnyNormalization,
  type ChannelNormalization,
  type Normalization,
} from '../normalization.js';
import { NORMALIZE_PACKED_BYTES, type NormalizePackedAttrs } from '../kernels/normalize-packed-kernel.js';
import { residentWordsOnTensorflow } from '../kernels/tensorflow-decode.js';
import { encodePixels, wireNormalization } from '../wire/payload.js';
import { packedWords, sendFloat32, sendPacked, type PackedPayload } from './send-payload.js';
import { WIRE_BYTES, type WireArrays, type WireDtype } from '../wire-dtypes.js';

/** What host preparation hands to the upload: the values at their wire size (int32 where the backend has no smaller integer tensor: webgl). */
export type HostPayload = WireArrays[WireDtype] | Int32Array;

/**
 * A transfer strategy cut into its three stages, so each can be timed on its own (synced after
 * each) and the whole composed without syncs in between:
 * host preparation (no device) -> upload (host payload to a resident device tensor) ->
 * device compute (resident tensor to the model input).
 */
export interface StagedTransfer {
  /** The strategy (cpu-normalize, device-normalize) or wire type (uint8 ... float32) it stands for. */
  readonly id: string;
  /** Bytes that cross to the device per pixel value. */
  readonly wireBytesPerElement: number;
  /**
   * Bytes per element the device must at least read and write to make the model input (for the
   * device's limit). Default: wire bytes in + 4 out where less than float32 crosses, else 0.
   */
  readonly passBytesPerElement?: number;
  /** Host work before anything reaches the device (normalize and re-layout, or nothing). */
  prepare(pixels: Uint8Array): HostPayload;
  /** Moves the host payload into device memory; the tensor is resident once the device syncs. */
  upload(payload: HostPayload, shape: readonly number[]): tf.Tensor;
  /** Turns the resident tensor into the model input; returns `resident` itself when there is nothing to do. */
  compute(resident: tf.Tensor, shape: readonly number[]): tf.Tensor;
}

/** All three stages, unsynced in between: what a real input pipeline does. The caller syncs and disposes. */
export function stagedToDevice(t: StagedTransfer, pixels: Uint8Array, shape: readonly number[]): tf.Tensor {
  const resident = t.upload(t.prepare(pixels), shape);
  const out = t.compute(resident, shape);
  if (out !== resident) resident.dispose();
  return out;
}

// Per-channel normalization and its host normalize now live with the other normalizations
// (the wire API and the kernels take them too); re-exported where they were.
export type { ChannelNormalization } from '../normalization.js';
export { normalizeChannelsOnHost } from '../normalization.js';

/**
 * Uploads values as packed 32-bit words (their wire bytes, padded to a whole word): an int32
 * tensor of ceil(bytes/4) words. On tensorflow the bytes cross as one TF_UINT8 tensor, made int32
 * words on its device (residentWordsOnTensorflow): an int32 tensor from the host would stay in host memory.
 */
export function uploadPackedBytes(context: BackendContext, values: PackedPayload['values']): tf.Tensor {
  if (context.name === 'tensorflow') return residentWordsOnTensorflow(tf.backend() as TfNodeBackend, values);
  const words = packedWords(values);
  // On webgpu the words are already in a device buffer; elsewhere move them now, so the upload stage holds the copy.
  if (!context.capabilities.hasGpuDevice) context.upload(words);
  return words;
}

/**
 * A staged transfer whose payload crosses as packed words and is decoded on the device:
 * device-normalize (raw bytes, nothing to prepare) by default, or a wire type prepared on the host.
 */
export function packedBytesTransfer(
  context: BackendContext,
  decode: (resident: tf.Tensor, shape: readonly number[]) => tf.Tensor,
  wire: { id: string; dtype: PackedPayload['dtype']; prepare: (pixels: Uint8Array) => HostPayload } = {
    id: 'device-normalize',
    dtype: 'uint8',
    prepare: (pixels) => pixels,
  },
): StagedTransfer {
  return {
    id: wire.id,
    wireBytesPerElement: WIRE_BYTES[wire.dtype],
    prepare: wire.prepare,
    upload: (payload) => uploadPackedBytes(context, payload as PackedPayload['values']),
    compute: decode,
  };
}

/** The NormalizePackedBytes kernel on resident packed words of type `wire`: (value - mean) / std as float32, per channel where `n` is. */
function decodePacked(wire: Exclude<WireDtype, 'float32'>, n: AnyNormalization): (resident: tf.Tensor, shape: readonly number[]) => tf.Tensor {
  return (resident, shape) => {
    const attrs: NormalizePackedAttrs = { shape: [...shape], wire, ...normalizationOf(n) };
    return tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed: resident }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
  };
}

/**
 * Section 11, staged: raw pixels encoded on the host as `dtype` (encodePixels), sent at its wire
 * size, and decoded into the same normalized float32 input on the device (none for float32,
 * which the host already normalized). `n` is one mean/std pair, or one per channel (channels
 * last: element i in channel i % C). Its id is the type's name.
 */
export function wireDtypeTransfer(context: BackendContext, dtype: WireDtype, n: AnyNormalization): StagedTransfer {
  // Pixels of C channels, so that a per-channel normalization finds its channels on the last axis.
  const channels = isPerChannel(n) ? n.mean.length : 1;
  const prepare = (pixels: Uint8Array) => encodePixels(dtype, pixels, [pixels.length / channels, channels], n).payload.values;
  if (dtype === 'float32') {
    return {
      id: dtype,
      wireBytesPerElement: WIRE_BYTES.float32,
      prepare,
      upload: (payload, shape) => sendFloat32(context, payload as Float32Array, [...shape]),
      compute: (resident) => resident,
    };
  }
  return packedBytesTransfer(context, decodePacked(dtype, wireNormalization(dtype, n)), { id: dtype, dtype, prepare });
}

/**
 * cpu-normalize for images [N,H,W,C] and clips [N,T,H,W,C]: per-channel normalize on the host,
 * send float32 (4 bytes per value). Channels stay last: tfjs's convolutions take NHWC / NDHWC.
 */
export function hostChannelNormalize(context: BackendContext, n: ChannelNormalization): StagedTransfer {
  let reused = new Float32Array(0);
  return {
    id: 'cpu-normalize',
    wireBytesPerElement: WIRE_BYTES.float32,
    prepare(pixels) {
      // Where the backend copies the values before upload returns, one array serves every batch.
      if (!context.capabilities.copiesHostArrays) return normalizeChannelsOnHost(pixels, n);
      if (reused.length !== pixels.length) reused = new Float32Array(pixels.length);
      return normalizeChannelsOnHost(pixels, n, reused);
    },
    upload: (payload, shape) => sendFloat32(context, payload as Float32Array, [...shape]),
    compute: (resident) => resident,
  };
}

/**
 * device-normalize for images and clips: send the raw bytes (1 byte per value) and normalize on
 * the device with the fused crop-mirror-normalize kernel (one pass; no crop, no mirror, layout
 * kept channels-last; on tensorflow one kernel of TensorFlow ops). On webgl the int32 path below;
 * another backend without the fused kernel is refused, not emulated.
 */
export function deviceChannelNormalize(context: BackendContext, n: ChannelNormalization): StagedTransfer {
  if (context.name === 'webgl') return int32ChannelNormalize(context, n);
  return packedBytesTransfer(context, (resident, shape) => {
    if (!hasFusedCropMirrorNormalize()) throw new Error(`backend ${tf.getBackend()} has no ${CROP_MIRROR_NORMALIZE} kernel`);
    const spec: CropMirrorNormalizeSpec = { inputShape: shape, mean: n.mean, std: n.std, layout: 'HWC' };
    resolveCropMirrorNormalize(spec); // validates the shape before dispatch
    return tf.engine().runKernel(CROP_MIRROR_NORMALIZE, { pixels: resident }, spec as unknown as tf.NamedAttrMap) as tf.Tensor;
  });
}

/**
 * device-normalize for the MNIST batches, staged: the packed bytes uploaded, then the
 * NormalizePackedBytes kernel (the vec4 program where the backend has it) on the resident words.
 */
export function devicePackedNormalize(context: BackendContext, n: Normalization): StagedTransfer {
  return packedBytesTransfer(context, decodePacked('uint8', n));
}

/**
 * deviceChannelNormalize on webgl, which has no uint8 tensor and whose 32-bit texture values
 * cannot carry packed byte words (a float32 texel holds 24 bits of an integer exactly): the pixels
 * widened on the host to int32 (4 bytes a value, as many as float32: the article's saving does not
 * exist there), normalized per channel by tfjs ops on the device (shared/facts/browser-chromium.md).
 */
function int32ChannelNormalize(context: BackendContext, n: ChannelNormalization): StagedTransfer {
  return {
    id: 'device-normalize',
    wireBytesPerElement: Int32Array.BYTES_PER_ELEMENT,
    prepare: (pixels) => Int32Array.from(pixels),
    upload(payload, shape) {
      const ints = tf.tensor(payload as Int32Array, [...shape], 'int32');
      context.upload(ints);
      return ints;
    },
    compute: (resident) => tf.tidy(() => tf.div(tf.sub(tf.cast(resident, 'float32'), [...n.mean]), [...n.std])),
  };
}

/** Segmentation masks (uint8 class indices) travel as bytes in both strategies: decoded on the device to int32 class indices. */
export function sendMasks(masks: Uint8Array, shape: readonly number[]): tf.Tensor {
  return tf.tidy(() => sendPacked({ dtype: 'uint8', values: masks, shape }).toInt());
}
