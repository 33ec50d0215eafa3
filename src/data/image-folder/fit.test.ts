import { describe, expect, it } from 'vitest';
import { letterbox } from '../coco/collate.js';
import { drawFitted, placement } from './fit.js';

/** An h x w RGB image whose bytes count up from `start`. */
function ramp(h: number, w: number, start = 1): Uint8Array {
  return Uint8Array.from({ length: h * w * 3 }, (_, i) => start + i);
}

describe('placement', () => {
  it("'resize' fills the canvas whatever the aspect ratio", () => {
    expect(placement(480, 640, { height: 224, width: 224 }, 'resize')).toEqual({ top: 0, left: 0, height: 224, width: 224 });
  });

  it("'letterbox' fits the limiting side and centres the other, the odd padding pixel after", () => {
    expect(placement(480, 640, { height: 240, width: 240 }, 'letterbox')).toEqual({ top: 30, left: 0, height: 180, width: 240 });
    expect(placement(100, 100, { height: 50, width: 101 }, 'letterbox')).toEqual({ top: 0, left: 25, height: 50, width: 50 });
    expect(placement(1, 1000, { height: 10, width: 10 }, 'letterbox')).toEqual({ top: 4, left: 0, height: 1, width: 10 });
  });

  it("is the COCO collate's letterbox on a square canvas", () => {
    for (const [h, w, s] of [
      [48, 64, 32],
      [64, 48, 32],
      [30, 100, 64],
      [10, 10, 64],
      [333, 500, 224],
    ] as const) {
      const { height, width, top, left } = letterbox(h, w, s);
      expect(placement(h, w, { height: s, width: s }, 'letterbox')).toEqual({ top, left, height, width });
    }
  });
});

describe('drawFitted', () => {
  it('copies an image resized to its own size byte for byte', () => {
    const src = ramp(3, 5);
    const dst = new Uint8Array(src.length);
    drawFitted(src, 3, 5, { height: 3, width: 5 }, 'resize', dst, 0);
    expect(dst).toEqual(src);
  });

  it('letterboxes into its slot of a batch: image centred, padding 0, other slots untouched', () => {
    // A 2x3 image into the second 4x3 slot: scale 1, rows 1-2 hold it, rows 0 and 3 stay 0.
    const slot = 4 * 3 * 3;
    const dst = new Uint8Array(2 * slot).fill(0);
    dst.fill(9, 0, slot);
    const box = drawFitted(ramp(2, 3, 100), 2, 3, { height: 4, width: 3 }, 'letterbox', dst, slot);
    expect(box).toEqual({ top: 1, left: 0, height: 2, width: 3 });
    expect([...dst.subarray(0, slot)]).toEqual(new Array(slot).fill(9));
    const rows = [...dst.subarray(slot)];
    expect(rows.slice(0, 9)).toEqual(new Array(9).fill(0));
    expect(rows.slice(9, 27)).toEqual([...ramp(2, 3, 100)]);
    expect(rows.slice(27)).toEqual(new Array(9).fill(0));
  });

  it('stretches bilinearly with half-pixel centres', () => {
    // One grey row 0, 100 stretched to 4 wide: sources -0.25 (edge), 0.25, 0.75, 1.25 (edge).
    const src = Uint8Array.of(0, 0, 0, 100, 100, 100);
    const dst = new Uint8Array(4 * 3);
    drawFitted(src, 1, 2, { height: 1, width: 4 }, 'resize', dst, 0);
    expect([...dst]).toEqual([0, 0, 0, 25, 25, 25, 75, 75, 75, 100, 100, 100]);
  });
});
