import { describe, expect, it } from 'vitest';
import { decodeRle, decodeRleColumnMajor, decodeRleString, encodeRle, encodeRleString, makeRle, RleError, rleArea } from './rle.js';

/** A row-major mask from rows of 0/1, e.g. mask([0,1],[1,1]). */
function mask(...rows: number[][]): { data: Uint8Array; height: number; width: number } {
  return { data: Uint8Array.from(rows.flat()), height: rows.length, width: rows[0]!.length };
}

describe('uncompressed RLE', () => {
  // Column-major: column 0 is 0,1,0 and column 1 is 1,1,0, so the pixel sequence is
  // 0 | 1 | 0 | 1 1 | 0 -> runs [1, 1, 1, 2, 1] (pycocotools frPyObjects agrees).
  const m = mask([0, 1], [1, 1], [0, 0]);

  it('decodes column-major runs to a row-major mask', () => {
    expect(decodeRle(makeRle(3, 2, [1, 1, 1, 2, 1]))).toEqual(m.data);
  });

  it("also decodes in pycocotools' own column-major byte order", () => {
    expect([...decodeRleColumnMajor(makeRle(3, 2, [1, 1, 1, 2, 1]))]).toEqual([0, 1, 0, 1, 1, 0]);
  });

  it('encodes a mask to the same runs, starting with a (possibly empty) run of 0s', () => {
    expect([...encodeRle(m.data, 3, 2).counts]).toEqual([1, 1, 1, 2, 1]);
    expect([...encodeRle(Uint8Array.of(1, 1), 1, 2).counts]).toEqual([0, 2]);
    expect([...encodeRle(Uint8Array.of(0, 0), 2, 1).counts]).toEqual([2]);
  });

  it('counts the area as the sum of the 1-runs', () => {
    expect(rleArea(makeRle(3, 2, [1, 1, 1, 2, 1]))).toBe(3);
  });

  it('refuses runs that do not cover the image exactly, or are not uint32', () => {
    expect(() => makeRle(3, 2, [1, 1, 1])).toThrow(/add up to 3 pixels, but size \[3, 2\] has 6/);
    expect(() => makeRle(3, 2, [1, 1, 1, 2, 2])).toThrow(/add up to 7/);
    expect(() => makeRle(1, 2, [-1, 3])).toThrow(RleError);
    expect(() => makeRle(1, 2, [0.5, 1.5])).toThrow(/run 0 is 0.5/);
  });
});

describe('compressed RLE strings (maskApi.c rleToString / rleFrString)', () => {
  // Each value is written in 5-bit groups plus 48 ('0'); from the 4th value on, the value
  // minus the one two places before is written. All strings below were derived by hand and
  // agree with pycocotools 2.0.11.
  it('writes small values as one character each', () => {
    // [1, 1, 1, 2, 1] -> 1, 1, 1, then 2-1 = 1 and 1-1 = 0.
    expect(encodeRleString(makeRle(3, 2, [1, 1, 1, 2, 1]))).toBe('11110');
    expect(decodeRle(decodeRleString('11110', 3, 2))).toEqual(mask([0, 1], [1, 1], [0, 0]).data);
  });

  it('writes negative deltas with the sign bit 0x10', () => {
    // [2, 5, 10, 2, 1]: 2 '2', 5 '5', 10 ':', 2-5 = -3 -> 29 'M', 1-10 = -9 -> 23 'G'.
    expect(encodeRleString(makeRle(4, 5, [2, 5, 10, 2, 1]))).toBe('25:MG');
    expect([...decodeRleString('25:MG', 4, 5).counts]).toEqual([2, 5, 10, 2, 1]);
  });

  it('continues large values with the 0x20 bit', () => {
    // 100 = 3*32 + 4: '4'|0x20 -> 'T', then '3'. 50 = 32 + 18: 18 has bit 0x10, so a group
    // with value 1 follows to keep it positive: 'b' (18|0x20), then '1'.
    expect(encodeRleString(makeRle(10, 20, [100, 50, 50]))).toBe('T3b1b1');
    expect([...decodeRleString('T3b1b1', 10, 20).counts]).toEqual([100, 50, 50]);
  });

  it('round-trips masks through encode, string and decode', () => {
    const random = Uint8Array.from({ length: 7 * 9 }, (_, i) => (((i * 7919) % 13) % 3 === 0 ? 1 : 0));
    const rle = encodeRle(random, 7, 9);
    expect(decodeRle(decodeRleString(encodeRleString(rle), 7, 9))).toEqual(random);
    const big = makeRle(3000, 2000, [1_234_567, 4_000_000, 765_433]);
    expect([...decodeRleString(encodeRleString(big), 3000, 2000).counts]).toEqual([...big.counts]);
  });

  it('refuses strings that are cut, outside the alphabet, or the wrong size', () => {
    expect(() => decodeRleString('T', 10, 20)).toThrow(/ends inside a value/);
    expect(() => decodeRleString('11 10', 3, 2)).toThrow(/character " " at 2 is outside '0'..'o'/);
    expect(() => decodeRleString('11110', 3, 3)).toThrow(/add up to 6 pixels, but size \[3, 3\] has 9/);
    // 'M' alone is -3: a negative run.
    expect(() => decodeRleString('M', 1, 1)).toThrow(/not a run length/);
  });
});
