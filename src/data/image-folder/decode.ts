/**
 * One image file's bytes to RGB as torchvision's default loader gives them: PIL's
 * `Image.open(f).convert('RGB')`. PIL picks the decoder by the content, not the name (a GIF
 * named x.png is read as a GIF), and so does this:
 * - BMP ('BM'): bmp.ts (the bmp-ts library, loaded on the first BMP); PBM/PGM/PPM ('P1'..'P6'):
 *   pnm.ts. sharp's libvips build has neither loader.
 * - 16-bit PNG and TIFF: sharp's samples as stored, then PIL's mode conversion (checked with
 *   Pillow 9.4 on PNGs of each colour type and a 16-bit TIFF): one grey channel opens as mode
 *   'I' (PNG) or 'I;16' (TIFF) and convert('RGB') CLIPS it to 0..255; grey+alpha, RGB and RGBA
 *   take the high byte (rawmodes 'LA;16B', 'RGB;16B', 'RGBA;16B').
 * - everything else (JPEG, 8-bit PNG, WebP, TIFF, GIF's first frame): ../coco/decode-image.ts
 *   decodeRgb, exact against PIL (CMYK, palette, 1-bit and alpha included).
 * Before any pixel is decoded the header's size is checked against a pixel budget: PIL's own
 * decompression-bomb limit by default (options.ts PIL_MAX_IMAGE_PIXELS).
 */
import type { Metadata } from 'sharp';
import { loadSharp } from '../load-sharp.js';
import { decodeRgb, ImageDecodeError, type RgbImage } from '../coco/decode-image.js';
import { errorMessage } from '../media-errors.js';
import { BmpError, decodeBmp, isBmp, readBmpHeader } from './bmp.js';
import { PIL_MAX_IMAGE_PIXELS } from './options.js';
import { decodePnm, isPnm, PnmError, readPnmHeader } from './pnm.js';

/** Why a file that opened was not decoded. */
export type DecodeSkipReason = 'undecodable-image' | 'too-many-pixels';

export interface DecodeSkip {
  readonly reason: DecodeSkipReason;
  readonly detail: string;
}

/** What the header says, before any pixel: the size and the decoder that will read it. */
interface Probe {
  readonly width: number;
  readonly height: number;
  readonly decode: () => Promise<RgbImage>;
}

/** The PNG signature, and where IHDR's bit depth sits. */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** 16-bit samples from sharp (as stored, no colour change) to RGB by PIL's mode conversion. */
async function decodeSixteenBit(bytes: Uint8Array, space: string): Promise<RgbImage> {
  const { data, info } = await (await loadSharp())(bytes, { failOn: 'warning', ignoreIcc: true, limitInputPixels: false })
    .toColourspace(space as 'grey16' | 'rgb16')
    .raw({ depth: 'ushort' })
    .toBuffer({ resolveWithObject: true });
  const values = new Uint16Array(data.buffer, data.byteOffset, data.length / 2);
  const { width, height, channels } = info;
  const n = width * height;
  const pixels = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const p = i * channels;
    if (channels === 1) {
      const v = Math.min(255, values[p]!);
      pixels[3 * i] = pixels[3 * i + 1] = pixels[3 * i + 2] = v;
    } else if (channels === 2) {
      pixels[3 * i] = pixels[3 * i + 1] = pixels[3 * i + 2] = values[p]! >> 8;
    } else {
      pixels[3 * i] = values[p]! >> 8;
      pixels[3 * i + 1] = values[p + 1]! >> 8;
      pixels[3 * i + 2] = values[p + 2]! >> 8;
    }
  }
  return { pixels, width, height };
}

/** Reads the header and picks the decoder; throws ImageDecodeError when no decoder takes the file. */
async function probe(bytes: Uint8Array): Promise<Probe> {
  if (isBmp(bytes)) {
    const { width, height } = readBmpHeader(bytes);
    return { width, height, decode: () => decodeBmp(bytes) };
  }
  if (isPnm(bytes)) {
    const { width, height } = readPnmHeader(bytes);
    return { width, height, decode: async () => decodePnm(bytes) };
  }
  let meta: Metadata;
  try {
    meta = await (await loadSharp())(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new ImageDecodeError(`not a readable image (${errorMessage(error).split('\n')[0]})`);
  }
  const { width, height, depth, space } = meta;
  if (width === undefined || height === undefined) throw new ImageDecodeError('the header gives no width or height');
  const png = PNG_SIGNATURE.every((b, i) => bytes[i] === b);
  if (depth === 'ushort' && (png || meta.format === 'tiff') && (space === 'grey16' || space === 'rgb16')) {
    return { width, height, decode: () => decodeSixteenBit(bytes, space) };
  }
  return { width, height, decode: () => decodeRgb(bytes) };
}

/** `1,234,567` */
const grouped = (n: number) => n.toLocaleString('en-US');

/** The image in `bytes` as PIL's convert('RGB'), or why it is skipped (an image above `maxPixels` is never decoded). */
export async function decodeImage(bytes: Uint8Array, maxPixels: number = PIL_MAX_IMAGE_PIXELS): Promise<RgbImage | DecodeSkip> {
  try {
    const found = await probe(bytes);
    const pixels = found.width * found.height;
    if (pixels > maxPixels) {
      return {
        reason: 'too-many-pixels',
        detail:
          `${found.width}x${found.height} = ${grouped(pixels)} pixels, over the budget of ${grouped(maxPixels)} (--max-pixels); ` +
          `decoding would take at least ${grouped(pixels * 3)} B as RGB`,
      };
    }
    return await found.decode();
  } catch (error) {
    if (error instanceof ImageDecodeError || error instanceof BmpError || error instanceof PnmError)
      return { reason: 'undecodable-image', detail: error.message };
    return { reason: 'undecodable-image', detail: `cannot decode it (${errorMessage(error).split('\n')[0]})` };
  }
}
