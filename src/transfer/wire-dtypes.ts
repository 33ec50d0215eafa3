/**
 * The element types the article benchmarks on the wire (section 11). tfjs 4.22 has none of
 * uint8, int8 or float16 (a Uint8Array becomes int32, 4 bytes per element), so the harness
 * sends them as packed 32-bit words and decodes them on the device.
 *
 * What each type carries in the dtypes scenario (one MNIST batch, four ways):
 * - uint8: the raw pixel x in 0..255.
 * - int8: the pixel centred on zero, x - 128 in -128..127, as a two's-complement byte (the
 *   shift by 128 that turns uint8 data into int8 with zero point 0); decoded by sign extension.
 * - float16: the host-normalized value (x - 127.5) / 127.5, rounded to half precision.
 * - float32: the host-normalized value, as is (the article's CPU-normalize path).
 */
export const WIRE_DTYPES = ['uint8', 'int8', 'float16', 'float32'] as const;
export type WireDtype = (typeof WIRE_DTYPES)[number];

/** The types that cross as packed 32-bit words and need a device decode. */
export const PACKED_WIRE_DTYPES = ['uint8', 'int8', 'float16'] as const;
export type PackedWireDtype = (typeof PACKED_WIRE_DTYPES)[number];

/** Bytes per element on the wire: 1, 1, 2, 4. */
export const WIRE_BYTES: Readonly<Record<WireDtype, number>> = { uint8: 1, int8: 1, float16: 2, float32: 4 };

/** The host array that holds each type's elements at their wire size (float16 as raw bits). */
export interface WireArrays {
  uint8: Uint8Array;
  int8: Int8Array;
  float16: Uint16Array;
  float32: Float32Array;
}

/** Bytes `count` elements occupy on the wire: packed types pad up to whole 32-bit words. */
export function wireByteLength(dtype: WireDtype, count: number): number {
  return Math.ceil((count * WIRE_BYTES[dtype]) / 4) * 4;
}
