/**
 * gpu-transfer-perf/kernels: the device decode and normalize kernels of the harness, for
 * production input pipelines. Send raw pixels at 1 byte per value (or int8, or float16 at 2) as
 * packed 32-bit words, and decode and normalize them on the device in one pass, per channel:
 * the path the harness measures against host normalization and float32.
 *
 * This entry imports nothing but tfjs and its backend packages (no test runner, no charts, no
 * image or data libraries); `npm run lint:layers` (.dependency-cruiser.mjs, rule
 * kernels-entry-light) fails on anything else it reaches, and src/kernels.test.ts imports it
 * from a plain Node process where nothing but @tensorflow packages can be found.
 *
 * Importing it registers two tfjs kernels on the webgpu, wasm, cpu and tensorflow backends:
 * - NormalizePackedBytes: packed uint8 / int8 / float16 words -> float32 (x - mean) / std, one
 *   mean/std pair or one per channel (channels last);
 * - CropMirrorNormalize: packed uint8 pixels -> cropped, mirrored, per-channel normalized
 *   float32 in HWC or CHW layout (DALI's crop_mirror_normalize).
 * Start the backend yourself (tf.setBackend); on webgpu the words reach the device through
 * tfjs's own upload (the harness's faster writeBuffer path needs a backend it started).
 *
 * ```ts
 * import * as tf from '@tensorflow/tfjs';
 * import { IMAGENET_NORMALIZATION, sendPacked } from 'gpu-transfer-perf/kernels';
 * const input = sendPacked({ dtype: 'uint8', values: rgbBytes, shape: [16, 224, 224, 3] }, IMAGENET_NORMALIZATION);
 * ```
 */
import * as tf from '@tensorflow/tfjs';
import { NORMALIZE_PACKED_BYTES, type NormalizePackedAttrs } from './transfer/kernels/normalize-packed-kernel.js';

export {
  /** The decode-and-normalize kernel's tfjs name. */
  NORMALIZE_PACKED_BYTES,
  /** Whether the current backend has it. */
  hasPackedKernel,
  type DecodeProgram,
  type NormalizePackedAttrs,
} from './transfer/kernels/normalize-packed-kernel.js';
export {
  /** The fused crop-mirror-normalize kernel's tfjs name. */
  CROP_MIRROR_NORMALIZE,
  /** Sends raw uint8 pixels and returns the cropped, mirrored, normalized float32 input in one kernel. */
  cropMirrorNormalize,
  /** The same from separate tfjs ops (the path of a backend without the fused kernel). */
  cropMirrorNormalizeComposed,
  /** Whether the current backend runs crop-mirror-normalize as one kernel. */
  hasFusedCropMirrorNormalize,
  type CropMirrorNormalizeOptions,
} from './transfer/kernels/crop-mirror-normalize-kernel.js';
export {
  /** Host reference of crop-mirror-normalize (float64, rounded once). */
  cropMirrorNormalizeOnHost,
  /** Validates a spec and works out its output shape; RangeError on bad input. */
  resolveCropMirrorNormalize,
  type CropMirrorNormalizeSpec,
  type CropWindow,
  type PixelLayout,
} from './transfer/kernels/crop-mirror-normalize.js';
export {
  /** The send path: packs a uint8, int8 or float16 payload into words and decodes it on the device. */
  sendPacked,
  /** A payload's bytes as an int32 tensor of whole words (the upload half of sendPacked). */
  packedWords,
  type PackedPayload,
  type SendOptions,
} from './transfer/strategies/send-payload.js';
export {
  /** Encodes raw pixels as a wire type (and the normalization the device still applies). */
  encodePixels,
  /** Host reference of the device decode (float64, rounded once). */
  decodeOnHost,
  /** Pixels centred on zero as int8 (x - 128). */
  centerPixels,
  type EncodedPixels,
  type Payload,
} from './transfer/wire/payload.js';
export {
  /** Views a typed array's bytes as 32-bit words (copying only when misaligned). */
  packBytes,
  type PackedBytes,
} from './transfer/wire/packed-bytes.js';
export {
  /** float32 values to float16 bits, roundTiesToEven. */
  toFloat16Array,
  /** float16 bits to float32 values. */
  fromFloat16Array,
} from './transfer/wire/float16.js';
export {
  ARTICLE_NORMALIZATION,
  IMAGENET_NORMALIZATION,
  IDENTITY_NORMALIZATION,
  normalizeChannelsOnHost,
  type AnyNormalization,
  type ChannelNormalization,
  type Normalization,
} from './transfer/normalization.js';
export { WIRE_BYTES, WIRE_DTYPES, wireByteLength, type PackedWireDtype, type WireDtype } from './transfer/wire-dtypes.js';

/**
 * Runs NormalizePackedBytes on words already on the device (an int32 tensor of packed words, e.g.
 * from packedWords or your own upload): the float32 tensor of `attrs.shape`, decoded from
 * `attrs.wire` (uint8 when absent) and normalized. The caller disposes both.
 */
export function normalizePacked(packed: tf.Tensor, attrs: NormalizePackedAttrs): tf.Tensor {
  return tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
}
