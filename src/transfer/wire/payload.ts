import { float16DecodeTable, toFloat16Array } from './float16.js';
import { IDENTITY_NORMALIZATION, isIdentity, normalizeOnHost, type Normalization } from '../normalization.js';
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
export interface EncodedPixels {
  readonly payload: Payload;
  /** Identity where the host already normalized (float16, float32). */
  readonly deviceNormalization: Normalization;
}

/**
 * Encodes raw pixels as one wire type so that every type yields the same model input
 * (x - mean) / std after its device decode (see wire-dtypes.ts for what each type carries).
 */
export function encodePixels(dtype: WireDtype, pixels: Uint8Array, shape: readonly number[], n: Normalization): EncodedPixels {
  const deviceNormalization = wireNormalization(dtype, n);
  switch (dtype) {
    case 'uint8':
      return { payload: checkPayload({ dtype, values: pixels, shape }), deviceNormalization };
    case 'int8':
      return { payload: checkPayload({ dtype, values: centerPixels(pixels), shape }), deviceNormalization };
    case 'float16':
      return { payload: checkPayload({ dtype, values: toFloat16Array(normalizeOnHost(pixels, n)), shape }), deviceNormalization };
    case 'float32':
      return { payload: checkPayload({ dtype, values: normalizeOnHost(pixels, n), shape }), deviceNormalization };
  }
}

/** The normalization the device still applies to a type encodePixels made: (x - mean) / std for the integer types, none for the floats. */
export function wireNormalization(dtype: WireDtype, n: Normalization): Normalization {
  switch (dtype) {
    case 'uint8':
      return n;
    case 'int8':
      // (x - mean) / std = (s - (mean - 128)) / std for s = x - 128.
      return { mean: n.mean - 128, std: n.std };
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
 * then (v - mean) / std computed in float64 and rounded once. The cpu and wasm kernels use it too.
 */
export function decodeOnHost(
  dtype: WireDtype,
  values: WireArrays[WireDtype],
  n: Normalization = IDENTITY_NORMALIZATION,
  into: Float32Array = new Float32Array(values.length),
): Float32Array {
  if (into.length !== values.length) throw new RangeError(`into has ${into.length} elements, values ${values.length}`);
  const table = dtype === 'float16' ? float16DecodeTable() : null;
  const identity = isIdentity(n);
  const { mean, std } = n;
  for (let i = 0; i < values.length; i++) {
    const v = table ? table[values[i]!]! : values[i]!;
    into[i] = identity ? v : (v - mean) / std;
  }
  return into;
}
