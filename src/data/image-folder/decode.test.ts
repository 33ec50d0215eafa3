import { describe, expect, it } from 'vitest';
import { decodeImage } from './decode.js';

const bytes = (text: string, ...more: number[]) => Buffer.concat([Buffer.from(text, 'latin1'), Buffer.from(more)]);

describe('decodeImage on bad input: one line saying what is wrong, never a throw', () => {
  it.each([
    ['a PGM whose data stops short', bytes('P5\n4 2\n255\n', 1, 2, 3), 'the data ends after 3 of 8 values'],
    ['a plain PGM value above maxval', bytes('P2 2 1 10 3 11\n'), 'value 11 is above maxval 10'],
    ['a PNM header that ends early', bytes('P6\n4 '), 'the header ends before width, height and maxval'],
    ['a PNM header with a non-number', bytes('P6 4 x 255\n'), "header value 'x' is not a number"],
    ['a maxval of 0', bytes('P5 1 1 0\n', 0), 'maxval 0 is not in 1..65535'],
    ['a P1 with a stray character', bytes('P1 2 1 0 2\n'), "invalid P1 value '2' (only 0 and 1)"],
    ['a BMP cut inside its header', bytes('BM', 0, 0), 'not a BMP file or its header is cut short'],
  ])('%s', async (_, input, detail) => {
    expect(await decodeImage(input)).toEqual({ reason: 'undecodable-image', detail });
  });

  it('names an RLE BMP and an OS/2 BMP header as not read', async () => {
    const header = (size: number, bits: number, compression: number) => {
      const b = Buffer.alloc(70);
      b.write('BM', 0, 'latin1');
      b.writeUInt32LE(70, 10);
      b.writeUInt32LE(size, 14);
      b.writeInt32LE(2, 18);
      b.writeInt32LE(2, 22);
      b.writeUInt16LE(bits, 28);
      b.writeUInt32LE(compression, 30);
      return b;
    };
    expect(await decodeImage(header(40, 8, 1))).toEqual({
      reason: 'undecodable-image',
      detail: 'RLE8-compressed BMP is not read; save it uncompressed or as PNG',
    });
    expect(await decodeImage(header(12, 24, 0))).toEqual({
      reason: 'undecodable-image',
      detail: 'BMP header of 12 bytes is not read (40, 52, 56, 108 and 124 are)',
    });
  });

  it('checks the pixel budget from the header before decoding', async () => {
    // A P5 header of 1000x1000 with no data: never read past the header.
    expect(await decodeImage(bytes('P5 1000 1000 255\n'), 999_999)).toEqual({
      reason: 'too-many-pixels',
      detail: '1000x1000 = 1,000,000 pixels, over the budget of 999,999 (--max-pixels); decoding would take at least 3,000,000 B as RGB',
    });
  });
});
