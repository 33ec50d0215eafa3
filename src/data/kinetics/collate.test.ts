import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { videoToolsFromEnv } from '../../cli/args.js';
import type { Sample } from '../dataset.js';
import { DatasetLoader } from '../loader.js';
import { collateClips } from './collate.js';
import { loadKinetics } from './reader.js';

/** A [T,H,W,3] clip filled with `value`, labelled `label`. */
function clip(value: number, label: number, shape = [2, 3, 4, 3]): Sample<number> {
  return { pixels: new Uint8Array(shape.reduce((a, b) => a * b, 1)).fill(value), shape, target: label };
}

describe('collateClips', () => {
  it('stacks clips into one [B,T,H,W,3] buffer and int32 labels', () => {
    const batch = collateClips([clip(1, 0), clip(2, 5)], Uint32Array.of(7, 3));
    expect(batch.shape).toEqual([2, 2, 3, 4, 3]);
    expect(batch.pixels.byteOffset).toBe(0);
    expect(batch.pixels.buffer.byteLength).toBe(2 * 72);
    expect(batch.pixels[71]).toBe(1);
    expect(batch.pixels[72]).toBe(2);
    expect([...batch.targets]).toEqual([0, 5]);
    expect(batch.targets).toBeInstanceOf(Int32Array);
    expect([...batch.indices]).toEqual([7, 3]);
  });

  it('refuses clips of different shapes', () => {
    expect(() => collateClips([clip(1, 0), clip(1, 0, [2, 3, 5, 3])], Uint32Array.of(0, 1))).toThrow(
      /sample 1 has shape \[2, 3, 5, 3\], sample 0 has \[2, 3, 4, 3\]/,
    );
    expect(() => collateClips([], new Uint32Array(0))).toThrow(/no samples/);
  });

  it('batches the fixture clips through a DatasetLoader (the article: batch 8 of 32-frame clips)', async () => {
    const root = fileURLToPath(new URL('../../../fixtures/kinetics', import.meta.url));
    const ds = await loadKinetics({ root, size: { height: 16, width: 16 }, videoTools: videoToolsFromEnv() });
    const loader = new DatasetLoader(ds, collateClips, { batchSize: 8, shuffle: false, seed: 0, dropLast: true });
    let batches = 0;
    for await (const { batch } of loader.epoch(0)) {
      expect(batch.shape).toEqual([8, 32, 16, 16, 3]);
      expect(batch.pixels.length).toBe(8 * 32 * 16 * 16 * 3);
      batches++;
    }
    expect(batches).toBe(5);
  });
});
