import { describe, expect, it } from 'vitest';
import { ClipIndex, clipsInVideo } from './clips.js';

describe('clipsInVideo (torchvision VideoClips, frame_rate=None)', () => {
  it('cuts F frames into max(0, F-31) clips of 32 with step 1', () => {
    expect(clipsInVideo(40, 32, 1)).toBe(9);
    expect(clipsInVideo(32, 32, 1)).toBe(1);
    expect(clipsInVideo(31, 32, 1)).toBe(0);
    expect(clipsInVideo(20, 32, 1)).toBe(0);
    expect(clipsInVideo(0, 32, 1)).toBe(0);
  });

  it('with a larger step, counts the starts 0, step, 2*step, ... that still fit', () => {
    // 40 frames, starts 0, 5 (5+32 = 37 <= 40), not 10.
    expect(clipsInVideo(40, 32, 5)).toBe(2);
    expect(clipsInVideo(10, 4, 3)).toBe(3);
  });

  it('refuses impossible arguments', () => {
    expect(() => clipsInVideo(40, 0, 1)).toThrow(/framesPerClip/);
    expect(() => clipsInVideo(40, 32, 0)).toThrow(/stepBetweenClips/);
    expect(() => clipsInVideo(-1, 32, 1)).toThrow(/frames/);
  });
});

describe('ClipIndex', () => {
  // Videos of 40, 20 (no clip), 33 and 48 frames: 9 + 0 + 2 + 17 = 28 clips.
  const index = new ClipIndex([40, 20, 33, 48], 32, 1);

  it('counts clips over all videos and per video', () => {
    expect(index.count).toBe(28);
    expect([0, 1, 2, 3].map((v) => index.clipsOf(v))).toEqual([9, 0, 2, 17]);
  });

  it("finds each clip's video and start frame, skipping videos without clips", () => {
    expect(index.locate(0)).toEqual({ video: 0, startFrame: 0 });
    expect(index.locate(8)).toEqual({ video: 0, startFrame: 8 });
    expect(index.locate(9)).toEqual({ video: 2, startFrame: 0 });
    expect(index.locate(11)).toEqual({ video: 3, startFrame: 0 });
    expect(index.locate(27)).toEqual({ video: 3, startFrame: 16 });
    expect(new ClipIndex([40], 32, 4).locate(1)).toEqual({ video: 0, startFrame: 4 });
  });

  it('refuses clips out of range', () => {
    expect(() => index.locate(28)).toThrow(/clip 28 out of range 0\.\.27/);
    expect(() => new ClipIndex([], 32, 1).locate(0)).toThrow(/out of range/);
  });
});
