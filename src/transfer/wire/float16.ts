/**
 * IEEE 754 binary16 ("half", float16) on the host, in-house: Node 20 has no Float16Array and
 * tfjs has no float16 dtype, so the float16 payload travels as Uint16Array bits. No package is
 * imported here, so the kernels entry (gpu-transfer-perf/kernels, which decodes float16 on the
 * cpu and wasm backends through float16DecodeTable) loads nothing but tfjs. Rounding must be
 * IEEE 754-2008 §4.3.1 roundTiesToEven, the rule of NumPy's npy_floatbits_to_halfbits;
 * float16.test.ts checks every half boundary against an independent reference and against the
 * @petamoriken/float16 library (a Float16Array ponyfill), so a change that rounds otherwise
 * fails the build.
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

/** float16 bits (0..0xffff) of a number, after rounding it to float32 as a Float32Array would. */
export function float32ToFloat16Bits(value: number): number {
  f32[0] = value;
  return halfBitsOfFloat32Bits(u32[0]!);
}

/**
 * The float32 (exact) value of float16 bits, from the format's definition: subnormal
 * fraction * 2^-24, normal (1024 + fraction) * 2^(exponent - 25), exponent 31 infinity or NaN.
 */
export function float16BitsToFloat32(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : Number.NaN;
  return sign * (exponent === 0 ? fraction * 2 ** -24 : (1024 + fraction) * 2 ** (exponent - 25));
}

// The encoder below (scalar and batch) is in-house: ~10x faster than the library's
// Float16Array.set on MNIST-sized arrays (0.33 vs 4.0 ms for 50,176 values, measured here; its
// time is reported as host-encode-time.float16), and no package to load. It works on the float32 bit pattern with
// integers only, the method of NumPy's npy_floatbits_to_halfbits (numpy/core/src/npymath/
// halffloat.c); float16.test.ts checks it against the library on every half boundary.

/** `q` (the kept bits) rounded by the `shift` bits `rest` that were shifted out: ties to even. */
function roundShifted(q: number, rest: number, shift: number): number {
  const half = 1 << (shift - 1);
  return rest > half || (rest === half && (q & 1) === 1) ? q + 1 : q;
}

/** Half bits of a float32 given as its bit pattern. */
function halfBitsOfFloat32Bits(bits: number): number {
  const sign = (bits >>> 16) & 0x8000;
  const exponentField = (bits >>> 23) & 0xff;
  const fraction = bits & 0x7fffff;
  if (exponentField === 0xff) return sign | (fraction !== 0 ? 0x7e00 : 0x7c00); // NaN stays a (quiet) NaN; +-inf
  const e = exponentField - 127; // float32 subnormals (field 0) land far below the half range
  if (e >= 16) return sign | 0x7c00; // >= 2^16: beyond every half value, infinity
  if (e >= -14) {
    // Normal half: drop 13 of the 23 fraction bits. A carry out of the 10 kept bits moves into
    // the exponent field, which is exactly the next binade (and infinity after 65504).
    return sign | roundShifted(((e + 15) << 10) | (fraction >>> 13), fraction & 0x1fff, 13);
  }
  // Subnormal half: the value in units of 2^-24 is (2^23 + fraction) * 2^(e + 1), a right
  // shift by -(e + 1) >= 14 bits. From 25 bits on the value is below 2^-25 and rounds to 0;
  // returning early also keeps counts of 32 and more away from `>>>`, which uses only the low 5
  // bits of its count. k = 1024 after rounding is the smallest normal, whose bits are 0x0400.
  const shift = -(e + 1);
  if (shift >= 25) return sign;
  const significand = 0x800000 | fraction;
  return sign | roundShifted(significand >>> shift, significand & ((1 << shift) - 1), shift);
}

/** Encodes float32 values as float16 bits (roundTiesToEven), one Uint16 per element. */
export function toFloat16Array(values: Float32Array, into: Uint16Array = new Uint16Array(values.length)): Uint16Array {
  if (into.length !== values.length) throw new RangeError(`into has ${into.length} elements, values ${values.length}`);
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  for (let i = 0; i < values.length; i++) into[i] = halfBitsOfFloat32Bits(bits[i]!);
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
