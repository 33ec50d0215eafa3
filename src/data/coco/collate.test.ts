import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../dataset.js';
import { DatasetLoader } from '../loader.js';
import { letterbox, letterboxCollate } from './collate.js';
import { loadCoco } from './reader.js';
import { resizeBilinear, resizeNearest } from './resize.js';

/** A sample of an h x w image filled with `value` and a mask filled with `label`. */
function sample(h: number, w: number, value: number, label: number): Sample<Uint8Array> {
  return { pixels: new Uint8Array(h * w * 3).fill(value), shape: [h, w, 3], target: new Uint8Array(h * w).fill(label) };
}

/** Resizes into a fresh buffer (no canvas). */
function resized(src: number[], h: number, w: number, outH: number, outW: number, nearest = false): number[] {
  const dst = new Uint8Array(outH * outW);
  if (nearest) resizeNearest(Uint8Array.from(src), h, w, outH, outW, { dst, offset: 0, rowStride: outW });
  else resizeBilinear(Uint8Array.from(src), h, w, 1, outH, outW, { dst, offset: 0, rowStride: outW });
  return [...dst];
}

describe('resize', () => {
  it('bilinear: identity at the same size, half-pixel centres when scaling', () => {
    expect(resized([1, 2, 3, 4, 5, 6], 2, 3, 2, 3)).toEqual([1, 2, 3, 4, 5, 6]);
    // 1x2 -> 1x4: sources at (d+0.5)/2-0.5 = -0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to 1).
    expect(resized([0, 100], 1, 2, 1, 4)).toEqual([0, 25, 75, 100]);
    // 1x4 -> 1x2: sources 0.5 and 2.5, the means of the pairs, rounded half up.
    expect(resized([0, 10, 20, 31], 1, 4, 1, 2)).toEqual([5, 26]);
  });

  it('nearest: labels are copied, never blended', () => {
    expect(resized([1, 2], 1, 2, 1, 4, true)).toEqual([1, 1, 2, 2]);
    expect(resized([1, 2, 3, 4], 1, 4, 1, 2, true)).toEqual([2, 4]);
  });
});

describe('letterbox', () => {
  it('fits the longer side and centres the shorter one', () => {
    expect(letterbox(48, 64, 32)).toEqual({ scale: 0.5, height: 24, width: 32, top: 4, left: 0 });
    expect(letterbox(64, 48, 32)).toEqual({ scale: 0.5, height: 32, width: 24, top: 0, left: 4 });
    expect(letterbox(30, 100, 64)).toEqual({ scale: 0.64, height: 19, width: 64, top: 22, left: 0 });
    expect(letterbox(10, 10, 64).scale).toBe(6.4);
  });
});

describe('letterboxCollate', () => {
  it('puts images of different sizes into one [B,S,S,3] buffer with padded [B,S,S] masks', () => {
    const collate = letterboxCollate({ size: 8, imagePad: 7, maskPad: 255 });
    const batch = collate([sample(4, 8, 100, 1), sample(8, 2, 200, 2)], Uint32Array.of(5, 9));
    expect(batch.shape).toEqual([2, 8, 8, 3]);
    expect(batch.pixels.byteOffset).toBe(0);
    expect(batch.pixels.buffer.byteLength).toBe(2 * 8 * 8 * 3);
    expect(batch.targets.shape).toEqual([2, 8, 8]);
    expect(batch.targets.masks.buffer.byteLength).toBe(2 * 8 * 8);
    expect([...batch.indices]).toEqual([5, 9]);
    // Sample 0 (4x8) fills rows 2..5; sample 1 (8x2) fills columns 3..4.
    const mask0 = [...batch.targets.masks.subarray(0, 64)];
    expect(mask0.slice(0, 16).every((v) => v === 255)).toBe(true);
    expect(mask0.slice(16, 48).every((v) => v === 1)).toBe(true);
    const row = [...batch.targets.masks.subarray(64, 72)];
    expect(row).toEqual([255, 255, 255, 2, 2, 255, 255, 255]);
    expect([...batch.pixels.subarray(0, 3)]).toEqual([7, 7, 7]);
    expect([...batch.pixels.subarray(2 * 8 * 3, 2 * 8 * 3 + 3)]).toEqual([100, 100, 100]);
  });

  it('refuses bad options and samples that are not [H,W,3] with an [H,W] mask', () => {
    expect(() => letterboxCollate({ size: 0 })).toThrow(/size must be an integer/);
    expect(() => letterboxCollate({ size: 8, maskPad: 256 })).toThrow(/maskPad/);
    const collate = letterboxCollate({ size: 8 });
    const grey: Sample<Uint8Array> = { pixels: new Uint8Array(4), shape: [2, 2, 1], target: new Uint8Array(4) };
    expect(() => collate([grey], Uint32Array.of(0))).toThrow(/shape \[2, 2, 1\], expected \[H, W, 3\]/);
  });

  it('batches the fixtures through a DatasetLoader (batch 4, 12 images -> 3 batches)', async () => {
    const root = fileURLToPath(new URL('../../../fixtures/coco', import.meta.url));
    const ds = await loadCoco({ root: `${root}/images`, annotations: `${root}/annotations/instances.json`, verify: 'header' });
    const loader = new DatasetLoader(ds, letterboxCollate({ size: 32 }), { batchSize: 4, shuffle: true, seed: 1, dropLast: false });
    const seen: number[] = [];
    for await (const { batch } of loader.epoch(0)) {
      expect(batch.shape).toEqual([4, 32, 32, 3]);
      expect(batch.targets.masks.length).toBe(4 * 32 * 32);
      expect(Math.max(...batch.targets.masks)).toBeLessThanOrEqual(4);
      seen.push(...batch.indices);
    }
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
  });
});
