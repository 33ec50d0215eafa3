import { describe, expect, it } from 'vitest';
import { rleArea } from './rle.js';
import { parseSegmentation, SegmentationError } from './segmentation.js';
import { paintSemanticMask } from './semantic-mask.js';

describe('parseSegmentation', () => {
  it('reads polygons, one RLE per polygon', () => {
    const seg = parseSegmentation(
      [
        [1, 1, 4, 1, 4, 3, 1, 3],
        [0, 0, 1, 0, 0, 1],
      ],
      5,
      6,
    );
    expect(seg.kind).toBe('polygon');
    expect(seg.rles.map(rleArea)).toEqual([6, 0]);
  });

  it('reads uncompressed and compressed RLE of the image size', () => {
    expect(parseSegmentation({ size: [3, 2], counts: [1, 1, 1, 2, 1] }, 3, 2).kind).toBe('rle');
    const compressed = parseSegmentation({ size: [3, 2], counts: '11110' }, 3, 2);
    expect(compressed.kind).toBe('compressed-rle');
    expect(rleArea(compressed.rles[0]!)).toBe(3);
  });

  it.each([
    ['null', null, /got null/],
    ['a number', 7, /got number/],
    ['an empty polygon list', [], /an empty list of polygons/],
    ['a box-like 4-number polygon', [[0, 0, 2, 2]], /polygon 0: .*got 4/],
    ['strings in a polygon', [['1', '2', '3', '4', '5', '6']], /polygons must be arrays of numbers|expected number/],
    ['an RLE without counts', { size: [3, 2] }, /counts/],
    ['an RLE of another size', { size: [2, 3], counts: [6] }, /size \[2, 3\] disagrees with the image's 3x2/],
    ['runs that do not cover the image', { size: [3, 2], counts: [1, 1] }, /uncompressed RLE: runs add up to 2 pixels/],
    ['a counts string outside the alphabet', { size: [3, 2], counts: '11~10' }, /compressed RLE: character "~"/],
  ])('refuses %s', (_, segmentation, message) => {
    expect(() => parseSegmentation(segmentation, 3, 2)).toThrow(SegmentationError);
    expect(() => parseSegmentation(segmentation, 3, 2)).toThrow(message);
  });
});

describe('paintSemanticMask', () => {
  it('paints later objects over earlier ones and counts each object once', () => {
    // Two overlapping rectangles on a 4x4 mask: class 1 over columns 0..2, class 2 over 2..3,
    // both on rows 0..1. The overlap (column 2) ends up class 2.
    const a = parseSegmentation([[0, 0, 3, 0, 3, 2, 0, 2]], 4, 4).rles;
    const b = parseSegmentation(
      [
        [2, 0, 4, 0, 4, 2, 2, 2],
        [2, 0, 4, 0, 4, 1, 2, 1],
      ],
      4,
      4,
    ).rles;
    const { mask, areas } = paintSemanticMask(4, 4, [
      { classIndex: 1, rles: a },
      { classIndex: 2, rles: b },
    ]);
    expect([...mask]).toEqual([1, 1, 2, 2, 1, 1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0]);
    // b's two polygons overlap on row 0: its union is 4 pixels, not 6.
    expect(areas).toEqual([6, 4]);
  });
});
