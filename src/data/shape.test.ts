import { describe, expect, it } from 'vitest';
import { MAX_BATCH_BYTES, parseShape, parseSize, ShapeParseError } from './shape.js';

describe('parseSize', () => {
  it('reads HxW (either x) into height and width', () => {
    expect(parseSize('224x224')).toEqual({ height: 224, width: 224 });
    expect(parseSize('480X640')).toEqual({ height: 480, width: 640 });
    expect(parseSize(' 1x8192 ')).toEqual({ height: 1, width: 8192 });
  });

  it.each([
    ['0x224', /--size 0x224: height must be a whole number from 1 to 8192, got "0"; write e\.g\. --size 224x224/],
    ['224x-3', /width must be a whole number from 1 to 8192, got "-3"/],
    ['224.5x224', /height .* got "224\.5"/],
    ['1e3x224', /height .* got "1e3"/],
    ['8193x224', /height .* got "8193"/],
    ['224x', /width .* got ""/],
    ['224', /--size "224": expected HEIGHTxWIDTH, e\.g\. --size 224x224/],
    ['2x2x2', /expected HEIGHTxWIDTH/],
  ])('refuses %s in one line', (text, message) => {
    expect(() => parseSize(text)).toThrow(ShapeParseError);
    expect(() => parseSize(text)).toThrow(message);
    expect(() => parseSize(text)).not.toThrow(/\n/);
  });
});

describe('parseShape', () => {
  it('reads NxHxWxC into an NHWC tuple', () => {
    expect(parseShape('16x512x512x3')).toEqual([16, 512, 512, 3]);
    expect(parseShape('1x1x1x1')).toEqual([1, 1, 1, 1]);
    expect(parseShape('8x256x256X4')).toEqual([8, 256, 256, 4]);
  });

  it('allows exactly 1 GiB, refuses a byte more, counting the widest element', () => {
    expect(parseShape('1024x1024x1024x1')).toEqual([1024, 1024, 1024, 1]);
    expect(1024 ** 3).toBe(MAX_BATCH_BYTES);
    expect(() => parseShape('1025x1024x1024x1')).toThrow(
      /--shape 1025x1024x1024x1: 1\.00 GiB as uint8, over the 1 GiB limit; use a smaller batch or image size/,
    );
    expect(() => parseShape('64x4096x4096x4')).toThrow(/4 GiB as uint8/);
    // The same shape fits as uint8 but not once float32 copies of it are made.
    expect(parseShape('512x512x512x3')).toEqual([512, 512, 512, 3]);
    expect(() => parseShape('512x512x512x3', 4)).toThrow(/1\.50 GiB as 4-byte elements, over the 1 GiB limit/);
  });

  it.each([
    ['0x512x512x3', /N \(batch\) must be a whole number from 1 to 1073741824, got "0"; write e\.g\. --shape 16x512x512x3/],
    ['16x-512x512x3', /H \(height\) .* got "-512"/],
    ['16x512x51.2x3', /W \(width\) .* got "51\.2"/],
    ['16x512x512x5', /C \(channels\) must be a whole number from 1 to 4, got "5"/],
    ['16x512x512', /--shape "16x512x512": expected NxHxWxC \(batch x height x width x channels\), e\.g\. --shape 16x512x512x3/],
    ['', /expected NxHxWxC/],
  ])('refuses %s in one line', (text, message) => {
    expect(() => parseShape(text)).toThrow(ShapeParseError);
    expect(() => parseShape(text)).toThrow(message);
    expect(() => parseShape(text)).not.toThrow(/\n/);
  });
});
