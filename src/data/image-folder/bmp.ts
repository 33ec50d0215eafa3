/**
 * BMP decoded as Pillow 9.4's BmpImagePlugin, then `convert('RGB')`, with the bmp-ts library
 * (loaded only when a BMP file is read): sharp's libvips build has no BMP loader.
 *
 * Where bmp-ts and Pillow part, this module follows Pillow (PIL/BmpImagePlugin.py and
 * libImaging/Unpack.c of Debian 12's python3-pil 9.4.0):
 * - the pixel data starts at the header's bfOffBits (bmp-ts reads right after the palette): a
 *   file with a gap is given to bmp-ts with the gap cut out;
 * - 16-bit pixels (5-5-5, or 5-6-5 with BI_BITFIELDS) are widened as Unpack.c's
 *   ImagingUnpackBGR15/16 do, `v * 255 / 31` (or / 63) in integers, where bmp-ts gives v * 8 (v * 4);
 * - alpha is dropped, not composited (convert('RGB')); 32-bit BI_RGB is BGRX in both;
 * - RLE4/RLE8 files are refused: bmp-ts 1.0.9's RLE path writes each pixel one byte off.
 * Palette, 1/4/8/24/32-bit and top-down files are bmp-ts's as they are (equal to Pillow's on
 * every fixture in fixtures/image-folder-every-case).
 */
import type { RgbImage } from '../coco/decode-image.js';

/** A BMP file this reader refuses; one line saying why. */
export class BmpError extends Error {
  override readonly name = 'BmpError';
}

/** The BITMAPINFOHEADER fields that decide the decoding. */
export interface BmpHeader {
  readonly width: number;
  readonly height: number;
  readonly bits: number;
  readonly compression: number;
  readonly headerSize: number;
  readonly dataOffset: number;
  readonly colors: number;
}

/** Whether `bytes` starts as a BMP file ('BM', as Pillow's _accept). */
export function isBmp(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x42 && bytes[1] === 0x4d;
}

/** The header, read before any pixel (for the pixel budget). */
export function readBmpHeader(bytes: Uint8Array): BmpHeader {
  if (!isBmp(bytes) || bytes.length < 54) throw new BmpError('not a BMP file or its header is cut short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerSize = view.getUint32(14, true);
  if (![40, 52, 56, 108, 124].includes(headerSize)) throw new BmpError(`BMP header of ${headerSize} bytes is not read (40, 52, 56, 108 and 124 are)`);
  const width = view.getInt32(18, true);
  const height = Math.abs(view.getInt32(22, true));
  if (width < 1 || height < 1) throw new BmpError(`BMP size ${width}x${height} has no pixels`);
  return {
    width,
    height,
    bits: view.getUint16(28, true),
    compression: view.getUint32(30, true),
    headerSize,
    dataOffset: view.getUint32(10, true),
    colors: view.getUint32(46, true),
  };
}

/** Where bmp-ts starts reading pixels: after the header, its masks and the palette (decoder.js parseHeader). */
function bmpTsDataStart(h: BmpHeader): number {
  let pos = 14 + 40;
  if (h.headerSize > 40 || h.compression === 3 || h.compression === 6) pos += 12;
  if (h.headerSize > 52 || h.compression === 6) pos += 4;
  if (h.headerSize > 56) pos += 108 - 56;
  if (h.headerSize > 108) pos += 124 - 108;
  if (h.bits <= 8 || h.colors > 0) pos += 4 * (h.colors === 0 ? 1 << h.bits : h.colors);
  return pos;
}

/** A BMP file as PIL's `Image.open(f).convert('RGB')` gives it. */
export async function decodeBmp(bytes: Uint8Array): Promise<RgbImage> {
  const h = readBmpHeader(bytes);
  if (h.compression === 1 || h.compression === 2)
    throw new BmpError(`RLE${h.compression === 1 ? 8 : 4}-compressed BMP is not read; save it uncompressed or as PNG`);
  if (![1, 4, 8, 16, 24, 32].includes(h.bits)) throw new BmpError(`BMP of ${h.bits} bits a pixel is not read`);
  const start = bmpTsDataStart(h);
  let input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (h.dataOffset > start) input = Buffer.concat([input.subarray(0, start), input.subarray(h.dataOffset)]);
  const { decode } = await import('bmp-ts');
  let abgr: Buffer;
  try {
    abgr = decode(input).data;
  } catch (error) {
    throw new BmpError(`cannot decode it (${error instanceof Error ? error.message : String(error)})`);
  }
  const n = h.width * h.height;
  if (abgr.length < n * 4) throw new BmpError(`decoded ${abgr.length / 4} of ${n} pixels`);
  const pixels = new Uint8Array(n * 3);
  const green6 = h.bits === 16 && h.compression === 3 && new DataView(bytes.buffer, bytes.byteOffset).getUint32(58, true) === 0x7e0;
  // bmp-ts gives 5-bit values as v * 8 and 6-bit ones as v * 4; Pillow widens v * 255 / 31 (/ 63).
  const widen5 = (c: number) => Math.trunc(((c >> 3) * 255) / 31);
  const widen6 = (c: number) => Math.trunc(((c >> 2) * 255) / 63);
  for (let i = 0; i < n; i++) {
    const [r, g, b] = [abgr[4 * i + 3]!, abgr[4 * i + 2]!, abgr[4 * i + 1]!];
    if (h.bits === 16) {
      pixels[3 * i] = widen5(r);
      pixels[3 * i + 1] = green6 ? widen6(g) : widen5(g);
      pixels[3 * i + 2] = widen5(b);
    } else {
      pixels[3 * i] = r;
      pixels[3 * i + 1] = g;
      pixels[3 * i + 2] = b;
    }
  }
  return { pixels, height: h.height, width: h.width };
}
