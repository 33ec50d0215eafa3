import { describe, expect, it } from 'vitest';
import { packBytes, unpackedView } from './packed-bytes.js';

describe('packBytes', () => {
  it('views an aligned buffer without copying', () => {
    const bytes = new Uint8Array([1, 2, 3, 4, 250, 251, 252, 253]);
    const packed = packBytes(bytes);
    expect(packed.zeroCopy).toBe(true);
    expect(packed.words.buffer).toBe(bytes.buffer);
    expect(packed.words.length).toBe(2);
    expect(packed.words[0]).toBe(0x04030201); // little-endian
  });

  it('pads a length that is not a multiple of 4 with zeros, and the view hides the padding', () => {
    const bytes = new Uint8Array([9, 8, 7, 6, 5]);
    const packed = packBytes(bytes);
    expect(packed.zeroCopy).toBe(false);
    expect(packed.words.length).toBe(2);
    expect(new Uint8Array(packed.words.buffer)).toEqual(new Uint8Array([9, 8, 7, 6, 5, 0, 0, 0]));
    expect(unpackedView(packed.words, packed.byteCount)).toEqual(bytes);
  });

  it('copies a misaligned view', () => {
    const bytes = new Uint8Array(new ArrayBuffer(12), 1, 8);
    bytes.set([1, 2, 3, 4, 5, 6, 7, 8]);
    const packed = packBytes(bytes);
    expect(packed.zeroCopy).toBe(false);
    expect(unpackedView(packed.words, packed.byteCount)).toEqual(bytes);
  });
});

describe('packBytes of wider and signed elements', () => {
  it('views aligned Uint16 float16 bits without copying, two per word, low half first', () => {
    const halves = new Uint16Array([0x3c00, 0xc000, 0x0001, 0x7bff]);
    const packed = packBytes(halves);
    expect(packed.zeroCopy).toBe(true);
    expect(packed.byteCount).toBe(8);
    expect(packed.words[0]! >>> 0).toBe(0xc0003c00);
    expect(packed.words[1]! >>> 0).toBe(0x7bff0001);
  });

  it('pads an odd number of halves to a whole word', () => {
    const packed = packBytes(new Uint16Array([0x1234, 0x5678, 0x9abc]));
    expect(packed.zeroCopy).toBe(false);
    expect(packed.words.length).toBe(2);
    expect(packed.words[1]! >>> 0).toBe(0x00009abc);
  });

  it('keeps the two-complement bytes of int8 values', () => {
    const packed = packBytes(new Int8Array([-128, -1, 0, 127]));
    expect(packed.zeroCopy).toBe(true);
    expect(packed.words[0]! >>> 0).toBe(0x7f00ff80);
  });
});
