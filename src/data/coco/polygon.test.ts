import { describe, expect, it } from 'vitest';
import { rasterizePolygon } from './polygon.js';
import { decodeRle, encodeRleString, RleError, rleArea } from './rle.js';

/** The rows of a row-major mask, for readable expectations. */
function rows(data: Uint8Array, width: number): number[][] {
  return Array.from({ length: data.length / width }, (_, y) => [...data.subarray(y * width, (y + 1) * width)]);
}

// How rleFrPoly decides, derived from maskApi.c: vertices are scaled by 5 and rounded; pixel
// column x gets a run boundary where the dense boundary steps between u = 5x+2 and 5x+3 (it
// crosses the column centre x+0.5); that boundary point's v gives the run edge
// ceil((v + 0.5)/5 - 0.5), clamped to [0, h]. So a pixel is in when its centre is inside.
describe('rasterizePolygon (pycocotools rleFrPoly)', () => {
  it('fills an axis-aligned rectangle with integer corners exactly: (x1-x0)*(y1-y0) pixels', () => {
    // Columns 1..3 (centres 1.5..3.5 lie in [1,4]); the top edge v=5 gives ceil(0.6) = 1, the
    // bottom edge v=15 gives ceil(2.6) = 3: rows 1..2. Area 3*2 = 6.
    const rle = rasterizePolygon([1, 1, 4, 1, 4, 3, 1, 3], 5, 6);
    expect(rleArea(rle)).toBe(6);
    expect(rows(decodeRle(rle), 6)).toEqual([
      [0, 0, 0, 0, 0, 0],
      [0, 1, 1, 1, 0, 0],
      [0, 1, 1, 1, 0, 0],
      [0, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0],
    ]);
  });

  it('gives the same pixels for either winding', () => {
    const cw = rasterizePolygon([1, 1, 4, 1, 4, 3, 1, 3], 5, 6);
    const ccw = rasterizePolygon([1, 3, 4, 3, 4, 1, 1, 1], 5, 6);
    expect([...ccw.counts]).toEqual([...cw.counts]);
  });

  it('leaves out pixels whose centre is on the hypotenuse of a right isosceles triangle', () => {
    // Triangle (0,0), (n,0), (0,n). The hypotenuse is walked from (0,5n) with slope -1, so in
    // column x it steps from v = 5n-5x-2 to 5n-5x-3; the run ends at ceil(n-x-1) = n-x-1, so
    // column x holds n-x-1 pixels: the centres with x+y+1 = n are out. Area n(n-1)/2.
    for (const n of [4, 5, 9]) expect(rleArea(rasterizePolygon([0, 0, n, 0, 0, n], n + 1, n + 1))).toBe((n * (n - 1)) / 2);
    expect(rows(decodeRle(rasterizePolygon([0, 0, 4, 0, 0, 4], 5, 5)), 5)).toEqual([
      [1, 1, 1, 0, 0],
      [1, 1, 0, 0, 0],
      [1, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
    ]);
  });

  it('clips to the image and rounds vertices to fifths of a pixel', () => {
    // A rectangle over the whole 3x4 image and beyond: every pixel, nothing outside.
    expect(rleArea(rasterizePolygon([-5, -5, 10, -5, 10, 10, -5, 10], 3, 4))).toBe(12);
    // 1.04 rounds to 1.0 (5.2 -> 5), so this is the 6-pixel rectangle again.
    expect(rleArea(rasterizePolygon([1.04, 1, 4, 1, 4, 3, 1, 3], 5, 6))).toBe(6);
  });

  it('matches pycocotools on a fractional pentagon (string from pycocotools 2.0.11)', () => {
    // frPyObjects([[2.3,1.1, 9.7,3.2, 8.4,9.9, 3.1,8.8, 0.6,5.5]], 12, 11)[0]['counts']
    const rle = rasterizePolygon([2.3, 1.1, 9.7, 3.2, 8.4, 9.9, 3.1, 8.8, 0.6, 5.5], 12, 11);
    expect(encodeRleString(rle)).toBe('?463O10O00010O0O1L=');
    expect(rleArea(rle)).toBe(56);
  });

  it('survives repeated vertices (a zero-length edge), as pycocotools does', () => {
    const closed = rasterizePolygon([1, 1, 4, 1, 4, 1, 4, 3, 1, 3, 1, 1], 5, 6);
    expect(rleArea(closed)).toBe(6);
  });

  it('refuses what is not a polygon', () => {
    expect(() => rasterizePolygon([0, 0, 4, 4], 5, 5)).toThrow(/even number \(>= 6\) of coordinates, got 4/);
    expect(() => rasterizePolygon([0, 0, 4, 0, 4], 5, 5)).toThrow(RleError);
    expect(() => rasterizePolygon([0, 0, 4, 0, Number.NaN, 4], 5, 5)).toThrow(/coordinate 4 is NaN/);
  });
});
