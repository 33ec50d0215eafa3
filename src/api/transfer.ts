/**
 * `gpu-transfer-perf/transfer`: raw pixels to a normalized float32 tensor on the device. The
 * article's two strategies (whole and staged), the alternatives users write, the normalizations,
 * the wire types and their payloads, the fused crop-mirror-normalize kernel. Also re-exported by
 * `gpu-transfer-perf`; the production kernels alone are `gpu-transfer-perf/kernels`.
 */

export type { PixelBatch, TransferStrategy } from '../transfer/strategies/strategies.js';
export type { ChannelNormalization, HostPayload, StagedTransfer } from '../transfer/strategies/staged-transfer.js';
export type { AnyNormalization, Normalization } from '../transfer/normalization.js';
export type { RawBatch } from '../transfer/strategies/alternatives.js';
export type { CropMirrorNormalizeSpec } from '../transfer/kernels/crop-mirror-normalize.js';
export type { WireDtype } from '../transfer/wire-dtypes.js';
export {
  /** cpu-normalize: normalize on the host, send float32 (4 bytes per pixel). */
  cpuNormalize,
  /** device-normalize: send raw bytes as packed words (1 byte per pixel), normalize on the device. */
  deviceNormalize,
} from '../transfer/strategies/strategies.js';
export {
  /** device-normalize for [N,H,W,C] images and clips, staged: bytes + the fused per-channel normalize kernel. */
  deviceChannelNormalize,
  /** device-normalize for MNIST-shaped batches, staged: bytes + the packed-bytes normalize kernel. */
  devicePackedNormalize,
  /** cpu-normalize for [N,H,W,C] images and clips, staged: per-channel normalize on the host, send float32. */
  hostChannelNormalize,
  /** A staged transfer whose payload crosses as packed 32-bit words, decoded on the device by `decode`. */
  packedBytesTransfer,
  /** Segmentation masks (uint8 class indices) sent as bytes, decoded on the device to int32. */
  sendMasks,
  /** All three stages of a staged transfer, unsynced in between, as a real pipeline runs them. */
  stagedToDevice,
  /** Section 11, staged: pixels encoded on the host as a wire type, decoded on the device. */
  wireDtypeTransfer,
} from '../transfer/strategies/staged-transfer.js';
export {
  /** The article's (x - 127.5) / 127.5, mapping bytes onto [-1, 1]. */
  ARTICLE_NORMALIZATION,
  /** Normalizes raw pixels on the host into float32 (float64 arithmetic, rounded once). */
  normalizeOnHost,
  /** Normalizes channels-last raw pixels on the host, one mean/std per channel (float64, rounded once). */
  normalizeChannelsOnHost,
} from '../transfer/normalization.js';
export {
  /** The naive tfjs port: bytes as an int32 tensor (4 bytes per pixel), normalized by two kernels. */
  naiveTfjsNormalize,
  /** The naive port cut into stages for measureStages. */
  naiveTfjsStaged,
  /** A tf.data pipeline over a batch's images, normalized per image and batched. */
  tfDataNormalize,
} from '../transfer/strategies/alternatives.js';
export {
  /** ImageNet's per-channel mean and std on the 0..255 scale. */
  IMAGENET_NORMALIZATION,
  /** CPU reference of crop, mirror and per-channel normalize (float64, rounded once). */
  cropMirrorNormalizeOnHost,
  /** Validates a crop-mirror-normalize spec and works out its output shape; RangeError on bad input. */
  resolveCropMirrorNormalize,
} from '../transfer/kernels/crop-mirror-normalize.js';
export {
  /** The fused crop-mirror-normalize kernel's tfjs name. */
  CROP_MIRROR_NORMALIZE,
  /** Sends raw pixels and returns the cropped, mirrored, normalized float32 input in one fused kernel. */
  cropMirrorNormalize,
  /** The same result from separate kernels (the unfused reference). */
  cropMirrorNormalizeComposed,
} from '../transfer/kernels/crop-mirror-normalize-kernel.js';
export {
  /** The wire types of section 11: uint8, int8, float16, float32. */
  WIRE_DTYPES,
  /** Bytes `count` elements of a wire type occupy on the wire (packed types pad to whole words). */
  wireByteLength,
} from '../transfer/wire-dtypes.js';
export {
  /** Bytes `count` elements of a wire type put on the wire on the running backend, sent from host values (unpadded on tensorflow). */
  packedBytesSent,
} from '../transfer/kernels/normalize-packed-kernel.js';
export {
  /** Pixels centred on zero as int8 (x - 128). */
  centerPixels,
  /** Encodes raw pixels as one wire type so that every type decodes to the same model input (one mean/std, or per channel). */
  encodePixels,
  /** Host reference of the device decode of a wire type (float64, rounded once; per channel too). */
  decodeOnHost,
} from '../transfer/wire/payload.js';
export {
  /** Sends a payload at its wire size and returns the float32 tensor decoded from it on the device. */
  sendPayload,
} from '../transfer/strategies/send-payload.js';
export {
  /** Views a typed array's bytes as 32-bit words (copying only when misaligned). */
  packBytes,
} from '../transfer/wire/packed-bytes.js';
export {
  /** Smallest positive normal float16 value. */
  FLOAT16_MIN_NORMAL,
  /** The exact float32 value of float16 bits. */
  float16BitsToFloat32,
  /** The most float16 rounding can move a value. */
  float16RoundingBound,
  /** Decodes float16 bits into float32 values. */
  fromFloat16Array,
} from '../transfer/wire/float16.js';
