import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cmykToRgb, decodeRgb, readImageHeader } from './decode-image.js';

const ODD = fileURLToPath(new URL('../../../fixtures/coco-odd', import.meta.url));
const image = (name: string) => readFile(join(ODD, 'images', name));

/** The ink values of the fixture's flat 8x8 blocks, known without a decoder (fixtures/coco-odd/README.md). */
interface CmykBlocks {
  readonly block: number;
  readonly rows: number;
  readonly cols: number;
  readonly cmyk: ReadonlyArray<readonly [number, number, number, number]>;
}

/**
 * Pillow's Image.convert('RGB') of one CMYK pixel, written from Pillow's source
 * (libImaging/Convert.c cmyk2rgb, ImagingUtils.h MULDIV255) independently of decode-image.ts.
 */
function pillowRgb([c, m, y, k]: readonly number[]): number[] {
  const nk = 255 - k!;
  return [c!, m!, y!].map((ink) => {
    const tmp = ink * nk + 128;
    return Math.min(255, Math.max(0, nk - ((tmp + (tmp >> 8)) >> 8)));
  });
}

/** The file without its APP14 "Adobe" segment (the marker most CMYK JPEG writers add). */
function withoutAdobeMarker(jpeg: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [jpeg.subarray(0, 2)];
  let at = 2;
  // Segments up to the start of scan: FF, marker, 2-byte length that counts itself.
  while (jpeg[at + 1] !== 0xda) {
    const length = (jpeg[at + 2]! << 8) | jpeg[at + 3]!;
    if (jpeg[at + 1] !== 0xee) parts.push(jpeg.subarray(at, at + 2 + length));
    at += 2 + length;
  }
  parts.push(jpeg.subarray(at));
  return Buffer.concat(parts);
}

/** The RGB triples of a PNG's PLTE chunk. */
function pngPalette(png: Uint8Array): Set<string> {
  for (let at = 8; at < png.length; ) {
    const length = new DataView(png.buffer, png.byteOffset + at).getUint32(0);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (type === 'PLTE') {
      const data = png.subarray(at + 8, at + 8 + length);
      return new Set(Array.from({ length: length / 3 }, (_, i) => data.subarray(i * 3, i * 3 + 3).join(',')));
    }
    at += 12 + length;
  }
  throw new Error('no PLTE chunk');
}

describe('cmykToRgb', () => {
  it("is Pillow's cmyk2rgb, rounding included (values worked by hand)", () => {
    const cmyk = Uint8Array.of(0, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 128, 128, 128, 127, 1, 127, 254, 1, 127, 128, 129, 128);
    // nk = 255 - k; r = nk - MULDIV255(c, nk): e.g. nk 254, c 127 gives 254 - 127 (127.5 rounds to 127).
    expect([...cmykToRgb(cmyk)]).toEqual([255, 255, 255, 0, 0, 0, 0, 255, 255, 64, 64, 64, 253, 127, 1, 64, 63, 63]);
  });
});

describe('decodeRgb on the odd images of fixtures/coco-odd', () => {
  it("decodes a CMYK JPEG as PIL's Image.open(f).convert('RGB'), not through an ICC profile", async () => {
    const table = JSON.parse(await readFile(join(ODD, 'cmyk-blocks.json'), 'utf8')) as CmykBlocks;
    const bytes = await image('cmyk.jpg');
    expect((await readImageHeader(bytes)).space).toBe('cmyk');
    const rgb = await decodeRgb(bytes);
    const width = table.cols * table.block;
    expect([rgb.height, rgb.width]).toEqual([table.rows * table.block, width]);
    const expected = new Uint8Array(rgb.pixels.length);
    for (let p = 0; p < rgb.height * rgb.width; p++) {
      const block = Math.floor(Math.floor(p / width) / table.block) * table.cols + Math.floor((p % width) / table.block);
      expected.set(pillowRgb(table.cmyk[block]!), p * 3);
    }
    // Every value equal (libvips' own CMYK to sRGB was up to 127 away, mean 16).
    expect(Buffer.from(rgb.pixels).equals(Buffer.from(expected))).toBe(true);
  });

  it('reads a CMYK JPEG without the Adobe marker as inverted too, as Pillow does', async () => {
    const bytes = await image('cmyk.jpg');
    const bare = withoutAdobeMarker(bytes);
    expect(bare.length).toBeLessThan(bytes.length);
    expect(Buffer.from((await decodeRgb(bare)).pixels).equals(Buffer.from((await decodeRgb(bytes)).pixels))).toBe(true);
  });

  it('expands a 4-bit palette PNG to the colours of its palette', async () => {
    const bytes = await image('palette.png');
    const rgb = await decodeRgb(bytes);
    expect([rgb.height, rgb.width, rgb.pixels.length]).toEqual([40, 56, 40 * 56 * 3]);
    const palette = pngPalette(bytes);
    const used = new Set(Array.from({ length: rgb.height * rgb.width }, (_, p) => rgb.pixels.subarray(p * 3, p * 3 + 3).join(',')));
    expect([...used].every((colour) => palette.has(colour))).toBe(true);
    expect(used.size).toBeGreaterThan(1);
  });

  it('decodes a progressive JPEG and a 13x199 one at their sizes', async () => {
    expect(await decodeRgb(await image('progressive.jpg'))).toMatchObject({ height: 48, width: 64 });
    const narrow = await decodeRgb(await image('narrow.jpg'));
    expect([narrow.height, narrow.width, narrow.pixels.length]).toEqual([13, 199, 13 * 199 * 3]);
  });
});
