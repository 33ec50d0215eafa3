import { describe, expect, it } from 'vitest';
import { frameOf } from './browser-video.js';

describe('frameOf', () => {
  it("is frame i of ffmpeg's [frames, height, width, 3] bytes, a view of them", () => {
    // 3 frames of 1x2 RGB pixels: frame k's values are 10k .. 10k + 5.
    const pixels = Uint8Array.from({ length: 18 }, (_, j) => 10 * Math.floor(j / 6) + (j % 6));
    expect([...frameOf(pixels, 1, 1, 2)]).toEqual([10, 11, 12, 13, 14, 15]);
    expect(frameOf(pixels, 2, 1, 2).buffer).toBe(pixels.buffer);
    expect(frameOf(pixels, 3, 1, 2).length).toBe(0);
  });
});
