import { Float16Array, getFloat16, setFloat16 } from '@petamoriken/float16';

/**
 * IEEE 754 binary16 ("half", float16) on the host, through @petamoriken/float16 (a Float16Array
 * ponyfill: Node 20 has none, and tfjs has no float16 dtype, so the float16 payload travels as
 * Uint16Array bits). Rounding must be IEEE 754-2008 §4.3.1 roundTiesToEven, the rule of NumPy's
 * npy_floatbits_to_halfbits; float16.test.ts checks every half boundary against an independent
 * reference, so a library change that rounds otherwise fails the build.
 *
 * Format (§3.6, Table 3.5): 1 sign bit, 5 exponent bits (bias 15), 10 stored significand bits;
 * normals 2^-14 .. 65504, subnormals k * 2^-24 for k = 1..1023.
 */

/** Largest finite half value: (2 - 2^-10) * 2^15. */
export const FLOAT16_MAX = 65504;
/** Smallest positive normal half value. */
export const FLOAT16_MIN_NORMAL = 2 ** -14;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const scratch = new DataView(new ArrayBuffer(2));

/** float16 bits (0..0xffff) of a number, after rounding it to float32 as a Float32Array would. */
export function float32ToFloat16Bits(value: number): number {
  setFloat16(scratch, 0, Math.fround(value), true);
  return scratch.getUint16(0, true);
}

/** The float32 (exact) value of float16 bits. */
export function float16BitsToFloat32(bits: number): number {
  scratch.setUint16(0, bits, true);
  return getFloat16(scratch, 0, true);
}

/** Encodes float32 values as float16 bits (roundTiesToEven), one Uint16 per element. */
export function toFloat16Array(values: Float32Array, into: Uint16Array = new Uint16Array(values.length)): Uint16Array {
  if (into.length !== values.length) throw new RangeError(`into has ${into.length} elements, values ${values.length}`);
  new Float16Array(into.buffer, into.byteOffset, into.length).set(values);
  return into;
}

let decodeTable: Float32Array | null = null;

/** All 65,536 float16 values as float32, indexed by their bits (built once, 256 KB). */
export function float16DecodeTable(): Float32Array {
  if (!decodeTable) {
    decodeTable = new Float32Array(0x10000);
    for (let h = 0; h < 0x10000; h++) decodeTable[h] = float16BitsToFloat32(h);
  }
  return decodeTable;
}

/** Decodes float16 bits into float32 values. */
export function fromFloat16Array(bits: Uint16Array, into: Float32Array = new Float32Array(bits.length)): Float32Array {
  if (into.length !== bits.length) throw new RangeError(`into has ${into.length} elements, bits ${bits.length}`);
  const table = float16DecodeTable();
  for (let i = 0; i < bits.length; i++) into[i] = table[bits[i]!]!;
  return into;
}

/**
 * The most roundTiesToEven can move a finite value |x| <= 65504 when it is stored as float16:
 * half the spacing of float16 values around x, 2^(max(e, -14) - 11) for e = floor(log2 |x|).
 */
export function float16RoundingBound(value: number): number {
  const magnitude = Math.abs(value);
  if (!(magnitude <= FLOAT16_MAX)) throw new RangeError(`${value} is outside the finite float16 range`);
  if (magnitude < FLOAT16_MIN_NORMAL) return 2 ** -25;
  f32[0] = magnitude;
  // Exponent of the float32 nearest to x; a float64 x just below a power of two can round up
  // into the next binade, whose bound is larger, so the result stays an upper bound.
  const e = ((u32[0]! >>> 23) & 0xff) - 127;
  return 2 ** (e - 11);
}
