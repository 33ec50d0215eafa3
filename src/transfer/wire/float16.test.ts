import { getFloat16, setFloat16 } from '@petamoriken/float16';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../base/random.js';
import { FLOAT16_MAX, float16BitsToFloat32, float16RoundingBound, float32ToFloat16Bits, fromFloat16Array, toFloat16Array } from './float16.js';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function float32FromBits(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0]!;
}
function bitsOfFloat32(value: number): number {
  f32[0] = value;
  return u32[0]!;
}

/**
 * Independent reference: the value of positive half bits 0..0x7c00 written from the format's
 * definition, where 0x7c00 stands for 2^16 (the next value the significand would reach; rounding
 * to it means overflow to infinity). Positive half bits are ordered like their values.
 */
function positiveHalfValue(bits: number): number {
  const exponent = bits >> 10;
  const fraction = (bits & 0x3ff) / 1024;
  return exponent === 0 ? fraction * 2 ** -14 : (1 + fraction) * 2 ** (exponent - 15);
}

/** Nearest half by binary search over bits, ties to the even bit pattern. */
function referenceHalfBits(value: number): number {
  if (Number.isNaN(value)) return 0x7e00;
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const v = Math.abs(value);
  if (v >= 2 ** 16) return sign | 0x7c00;
  let lo = 0;
  let hi = 0x7c00; // positiveHalfValue(lo) <= v < positiveHalfValue(hi)
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (positiveHalfValue(mid) <= v) lo = mid;
    else hi = mid;
  }
  const below = v - positiveHalfValue(lo);
  const above = positiveHalfValue(hi) - v;
  const nearest = below < above ? lo : above < below ? hi : lo % 2 === 0 ? lo : hi;
  return sign | nearest;
}

describe('float32 -> float16 (roundTiesToEven)', () => {
  it('encodes the textbook values', () => {
    // Examples of IEEE 754 binary16 (e.g. the "Half-precision floating-point format" tables).
    const cases: Array<[number, number]> = [
      [0, 0x0000],
      [-0, 0x8000],
      [1, 0x3c00],
      [-2, 0xc000],
      [1 / 3, 0x3555],
      [0.1, 0x2e66],
      [0.99951172, 0x3bff],
      [1.00097656, 0x3c01],
      [FLOAT16_MAX, 0x7bff],
      [65519.99, 0x7bff],
      [65520, 0x7c00], // halfway to 2^16: the even neighbour is 2^16, so infinity
      [2 ** -14, 0x0400],
      [2 ** -24, 0x0001],
      [2 ** -25, 0x0000], // halfway between 0 and 2^-24: ties to even, 0
      [3 * 2 ** -25, 0x0002], // halfway between 1 and 2 units: ties to 2
      [Infinity, 0x7c00],
      [-Infinity, 0xfc00],
    ];
    for (const [value, bits] of cases) expect(float32ToFloat16Bits(value), `${value}`).toBe(bits);
    expect(Number.isNaN(float16BitsToFloat32(float32ToFloat16Bits(Number.NaN)))).toBe(true);
  });

  it('round-trips every non-NaN half exactly', () => {
    const wrong: number[] = [];
    for (let h = 0; h < 0x10000; h++) {
      const v = float16BitsToFloat32(h);
      if (!Number.isNaN(v) && float32ToFloat16Bits(v) !== h) wrong.push(h);
    }
    expect(wrong).toEqual([]);
  });

  it('rounds every midpoint between neighbouring halves to the even one, and its float32 neighbours to the nearer', () => {
    // Collected, not asserted one by one: 190k expect() calls would take seconds.
    const wrong: string[] = [];
    const values: number[] = [];
    const expected: number[] = [];
    let checked = 0;
    for (let h = 0; h < 0x7bff; h++) {
      const mid = (positiveHalfValue(h) + positiveHalfValue(h + 1)) / 2; // 12 significant bits: exact in float32
      if (Math.fround(mid) !== mid) wrong.push(`midpoint above 0x${h.toString(16)} is not a float32`);
      const even = h % 2 === 0 ? h : h + 1;
      for (const sign of [0, 0x8000]) {
        const s = sign ? -1 : 1;
        const midBits = bitsOfFloat32(s * mid);
        const cases: Array<[number, number]> = [
          [s * mid, sign | even],
          [float32FromBits(midBits - 1), sign | h], // one float32 step toward zero
          [float32FromBits(midBits + 1), sign | (h + 1)], // one float32 step away from zero
        ];
        for (const [value, bits] of cases) {
          checked++;
          values.push(value);
          expected.push(bits);
          if (float32ToFloat16Bits(value) !== bits) wrong.push(`${value} -> 0x${float32ToFloat16Bits(value).toString(16)}, want 0x${bits.toString(16)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(0x7bff * 6);
    // The in-house batch encoder (the hot path) must round exactly like the library.
    const batch = toFloat16Array(Float32Array.from(values));
    expect(expected.filter((bits, i) => batch[i] !== bits)).toEqual([]);
  });

  it('agrees with the nearest-value reference on random float32 bit patterns', () => {
    const rng = seededRng(16);
    const wrong: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      // Half the draws are biased into the half range (exponents 100..143) where rounding happens.
      const bits = i % 2 === 0 ? rng.int(2 ** 32) : ((rng.int(2) << 31) | ((100 + rng.int(44)) << 23) | rng.int(2 ** 23)) >>> 0;
      const value = float32FromBits(bits);
      const actual = float32ToFloat16Bits(value);
      const batch = toFloat16Array(Float32Array.of(value))[0]!;
      const ok = Number.isNaN(value)
        ? Number.isNaN(float16BitsToFloat32(actual)) && Number.isNaN(float16BitsToFloat32(batch))
        : actual === referenceHalfBits(value) && batch === actual;
      if (!ok) wrong.push(`float32 bits 0x${bits.toString(16)} -> 0x${actual.toString(16)} (batch 0x${batch.toString(16)})`);
    }
    expect(wrong).toEqual([]);
  });

  it('encodes and decodes whole arrays like the scalar functions', () => {
    const values = Float32Array.from([0.5, -0.25, 1 / 3, 70000, 2 ** -20, -0]);
    const bits = toFloat16Array(values);
    expect([...bits]).toEqual([...values].map(float32ToFloat16Bits));
    expect([...fromFloat16Array(bits)]).toEqual([...bits].map(float16BitsToFloat32));
    expect(() => toFloat16Array(values, new Uint16Array(2))).toThrow(RangeError);
  });
});

describe('the in-house codec against @petamoriken/float16 (the library it replaced)', () => {
  const view = new DataView(new ArrayBuffer(2));
  it('decodes all 65,536 bit patterns to the same value (NaN as NaN)', () => {
    const wrong: string[] = [];
    for (let h = 0; h < 0x10000; h++) {
      view.setUint16(0, h, true);
      const expected = getFloat16(view, 0, true);
      const actual = float16BitsToFloat32(h);
      if (!(Object.is(actual, expected) || (Number.isNaN(actual) && Number.isNaN(expected)))) wrong.push(`0x${h.toString(16)}: ${actual} vs ${expected}`);
    }
    expect(wrong).toEqual([]);
  });

  it('encodes every midpoint, its float32 neighbours and random float32 values to the same bits', () => {
    const rng = seededRng(18);
    const values: number[] = [];
    for (let h = 0; h < 0x7bff; h++) {
      const midBits = bitsOfFloat32((positiveHalfValue(h) + positiveHalfValue(h + 1)) / 2);
      for (const bits of [midBits - 1, midBits, midBits + 1]) values.push(float32FromBits(bits), -float32FromBits(bits));
    }
    for (let i = 0; i < 50_000; i++) values.push(float32FromBits(rng.int(2 ** 32)));
    const wrong: string[] = [];
    for (const value of values) {
      setFloat16(view, 0, Math.fround(value), true);
      const expected = view.getUint16(0, true);
      const actual = float32ToFloat16Bits(value);
      const bothNaN = Number.isNaN(value) && (actual & 0x7c00) === 0x7c00 && (actual & 0x3ff) !== 0;
      if (actual !== expected && !bothNaN) wrong.push(`${value}: 0x${actual.toString(16)} vs 0x${expected.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('float16RoundingBound', () => {
  it('bounds the rounding error of every value and is reached at midpoints', () => {
    const rng = seededRng(17);
    const outside: number[] = [];
    for (let i = 0; i < 50_000; i++) {
      const x = Math.fround((rng.float() * 2 - 1) * 2 ** (rng.int(32) - 24));
      const stored = float16BitsToFloat32(float32ToFloat16Bits(x));
      if (Math.abs(stored - x) > float16RoundingBound(x)) outside.push(x);
    }
    expect(outside).toEqual([]);
    // Halfway between 1 and 1 + 2^-10 the error is exactly half a spacing: 2^-11.
    const mid = 1 + 2 ** -11;
    expect(Math.abs(float16BitsToFloat32(float32ToFloat16Bits(mid)) - mid)).toBe(float16RoundingBound(mid));
    // For |x| in [0.5, 1) (normalized pixels) the bound is 2^-12.
    expect(float16RoundingBound(0.75)).toBe(2 ** -12);
    expect(float16RoundingBound(2 ** -20)).toBe(2 ** -25);
    expect(() => float16RoundingBound(70000)).toThrow(RangeError);
  });
});
