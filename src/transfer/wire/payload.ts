import { float16DecodeTable, toFloat16Array } from './float16.js';
import {
  checkChannelNormalization,
  checkWholePixels,
  IDENTITY_NORMALIZATION,
  isIdentity,
  isPerChannel,
  normalizeChannelsOnHost,
  normalizeOnHost,
  shiftMean,
  uniformChannels,
  type AnyNormalization,
  type Normalization,
} from '../normalization.js';
import type { PackedWireDtype, WireArrays, WireDtype } from '../wire-dtypes.js';

/** Elements of one wire type held on the host at their wire size, with the tensor shape they form. */
export type Payload = {
  [D in WireDtype]: { readonly dtype: D; readonly values: WireArrays[D]; readonly shape: readonly number[] };
}[WireDtype];

const ARRAY_TYPES = { uint8: Uint8Array, int8: Int8Array, float16: Uint16Array, float32: Float32Array } as const;

/** Checks that the values are the wire type's array and fill the shape exactly. */
export function checkPayload(payload: Payload): Payload {
  const count = payload.shape.reduce((a, b) => a * b, 1);
  if (!(payload.values instanceof ARRAY_TYPES[payload.dtype])) {
    throw new TypeError(`a ${payload.dtype} payload needs a ${ARRAY_TYPES[payload.dtype].name}`);
  }
  if (payload.values.length !== count) {
    throw new RangeError(`shape [${payload.shape.join(', ')}] has ${count} elements, the payload ${payload.values.length}`);
  }
  return payload;
}

/** Pixels centred on zero as int8: x - 128, i.e. the byte with its top bit flipped read as two's complement. */
export function centerPixels(pixels: Uint8Array, into: Int8Array = new Int8Array(pixels.length)): Int8Array {
  const bytes = new Uint8Array(into.buffer, into.byteOffset, into.length);
  for (let i = 0; i < pixels.length; i++) bytes[i] = pixels[i]! ^ 0x80;
  return into;
}

/** A pixel batch encoded for the wire, and the normalization the device must still apply to it. */
export interface EncodedPixels<N extends AnyNormalization = AnyNormalization> {
  readonly payload: Payload;
  /** Identity where the host already normalized (float16, float32); per channel where `n` was. */
  readonly deviceNormalization: N | Normalization;
}

/**
 * Checks `n` against a payload's shape: a per-channel normalization needs channels last, one
 * mean/std per entry of the last axis (element i is in channel i % C).
 */
export function checkNormalizationFits(n: AnyNormalization, shape: readonly number[]): AnyNormalization {
  if (!isPerChannel(n)) return n;
  const channels = shape[shape.length - 1];
  if (channels === undefined) throw new RangeError('a per-channel normalization needs a shape whose last axis is the channels');
  return checkChannelNormalization(n, channels);
}

/**
 * Encodes raw pixels as one wire type so that every type yields the same model input
 * (x - mean) / std after its device decode (see wire-dtypes.ts for what each type carries).
 * `n` is one mean/std for all, or one per channel (channels last: the last axis of `shape`).
 */
export function encodePixels<N extends AnyNormalization>(dtype: WireDtype, pixels: Uint8Array, shape: readonly number[], n: N): EncodedPixels<N> {
  checkNormalizationFits(n, shape);
  const deviceNormalization = wireNormalization(dtype, n);
  const hostNormalized = () => (isPerChannel(n) ? normalizeChannelsOnHost(pixels, n) : normalizeOnHost(pixels, n));
  switch (dtype) {
    case 'uint8':
      return { payload: checkPayload({ dtype, values: pixels, shape }), deviceNormalization };
    case 'int8':
      return { payload: checkPayload({ dtype, values: centerPixels(pixels), shape }), deviceNormalization };
    case 'float16':
      return { payload: checkPayload({ dtype, values: toFloat16Array(hostNormalized()), shape }), deviceNormalization };
    case 'float32':
      return { payload: checkPayload({ dtype, values: hostNormalized(), shape }), deviceNormalization };
  }
}

/**
 * The normalization the device still applies to a type encodePixels made: (x - mean) / std for
 * the integer types (per channel where `n` is), none for the floats, which the host normalized.
 */
export function wireNormalization<N extends AnyNormalization>(dtype: WireDtype, n: N): N | Normalization {
  switch (dtype) {
    case 'uint8':
      return n;
    case 'int8':
      // (x - mean) / std = (s - (mean - 128)) / std for s = x - 128, channel by channel.
      return shiftMean(n, 128);
    case 'float16':
    case 'float32':
      return IDENTITY_NORMALIZATION;
  }
}

/** The first `count` elements of packed words, viewed (not copied) as the wire type's array. */
export function viewPackedWords(words: Int32Array, dtype: PackedWireDtype, count: number): WireArrays[PackedWireDtype] {
  switch (dtype) {
    case 'uint8':
      return new Uint8Array(words.buffer, words.byteOffset, count);
    case 'int8':
      return new Int8Array(words.buffer, words.byteOffset, count);
    case 'float16':
      return new Uint16Array(words.buffer, words.byteOffset, count);
  }
}

/**
 * Host reference decode: each element's value as float32 (exact: integers, or float16 widened),
 * then (v - mean) / std computed in float64 and rounded once; per channel, element i takes
 * channel i % C's constants. The cpu and wasm kernels use it too.
 */
export function decodeOnHost(
  dtype: WireDtype,
  values: WireArrays[WireDtype],
  n: AnyNormalization = IDENTITY_NORMALIZATION,
  into: Float32Array = new Float32Array(values.length),
): Float32Array {
  if (into.length !== values.length) throw new RangeError(`into has ${into.length} elements, values ${values.length}`);
  const table = dtype === 'float16' ? float16DecodeTable() : null;
  if (isPerChannel(n)) checkWholePixels(values.length, checkChannelNormalization(n).mean.length);
  const uniform = uniformChannels(n);
  if (uniform) {
    // The loop as it was before per-channel normalization: the cpu and wasm kernels' hot path.
    const identity = isIdentity(uniform);
    const { mean, std } = uniform;
    for (let i = 0; i < values.length; i++) {
      const v = table ? table[values[i]!]! : values[i]!;
      into[i] = identity ? v : (v - mean) / std;
    }
    return into;
  }
  const { mean, std } = n as Exclude<AnyNormalization, Normalization>;
  const channels = mean.length;
  for (let i = 0, c = 0; i < values.length; i++, c = c + 1 === channels ? 0 : c + 1) {
    const v = table ? table[values[i]!]! : values[i]!;
    into[i] = (v - mean[c]!) / std[c]!;
  }
  return into;
}
