import { describe, expect, it } from 'vitest';
import { makeImageDataset } from './dataset.js';

const base = {
  images: new Uint8Array(2 * 3 * 4 * 1),
  labels: new Uint8Array(2),
  count: 2,
  height: 3,
  width: 4,
  channels: 1,
  source: 'test',
};

describe('makeImageDataset', () => {
  it('accepts consistent sizes and keeps the buffers', () => {
    const ds = makeImageDataset(base);
    expect(ds.images).toBe(base.images);
    expect(ds.count).toBe(2);
    expect(Object.isFrozen(ds)).toBe(true);
  });

  it('throws when images or labels disagree with the shape', () => {
    expect(() => makeImageDataset({ ...base, images: new Uint8Array(23) })).toThrow(/23 bytes.*needs 24/);
    expect(() => makeImageDataset({ ...base, labels: new Uint8Array(3) })).toThrow(/3 labels for 2 images/);
    expect(() => makeImageDataset({ ...base, height: 0, images: new Uint8Array(0) })).toThrow(/height/);
    expect(() => makeImageDataset({ ...base, count: 1.5 })).toThrow(/count/);
  });
});
