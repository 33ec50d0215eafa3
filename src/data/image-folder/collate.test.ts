import { describe, expect, it } from 'vitest';
import type { Sample } from '../dataset.js';
import { fitCollate } from './collate.js';

/** An h x w image filled with `value`, labelled `label`. */
function sample(h: number, w: number, value: number, label: number): Sample<number> {
  return { pixels: new Uint8Array(h * w * 3).fill(value), shape: [h, w, 3], target: label };
}

describe('fitCollate', () => {
  it('puts images of any size into one [B,H,W,3] buffer of its own, with int32 labels', () => {
    const collate = fitCollate({ size: { height: 2, width: 4 }, fit: 'letterbox' });
    const batch = collate([sample(2, 4, 50, 3), sample(4, 4, 200, 0)], Uint32Array.of(7, 9));
    expect(batch.shape).toEqual([2, 2, 4, 3]);
    expect(batch.pixels.byteOffset).toBe(0);
    expect(batch.pixels.buffer.byteLength).toBe(2 * 2 * 4 * 3);
    expect(batch.targets).toEqual(Int32Array.of(3, 0));
    expect(batch.indices).toEqual(Uint32Array.of(7, 9));
    expect([...batch.pixels.subarray(0, 24)]).toEqual(new Array(24).fill(50));
    // 4x4 into 2x4: 2x2 in the middle columns 1-2, columns 0 and 3 padding.
    const second = [...batch.pixels.subarray(24)];
    const row = [0, 0, 0, 200, 200, 200, 200, 200, 200, 0, 0, 0];
    expect(second).toEqual([...row, ...row]);
  });

  it('stretches in resize mode', () => {
    const batch = fitCollate({ size: { height: 3, width: 3 }, fit: 'resize' })([sample(1, 5, 80, 1)], Uint32Array.of(0));
    expect([...batch.pixels]).toEqual(new Array(27).fill(80));
  });

  it('refuses samples that are not [H, W, 3] images', () => {
    const collate = fitCollate({ size: { height: 2, width: 2 }, fit: 'resize' });
    const grey: Sample<number> = { pixels: new Uint8Array(4), shape: [2, 2, 1], target: 0 };
    expect(() => collate([grey], Uint32Array.of(0))).toThrow(/sample 0 has shape \[2, 2, 1\] and 4 bytes, expected \[H, W, 3\]/);
    expect(() => collate([sample(2, 2, 0, 0)], Uint32Array.of(0, 1))).toThrow(/1 samples but 2 indices/);
  });
});
