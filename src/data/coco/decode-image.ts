/**
 * Image files to raw RGB bytes with sharp (libvips), matching what torchvision's COCO loaders do
 * with PIL: `Image.open(path).convert('RGB')`. So: 3 channels always (grey replicated to R=G=B,
 * alpha dropped, not composited), no EXIF auto-rotation (PIL does not rotate either), and no ICC
 * colour management (`ignoreIcc`, PIL's convert ignores profiles too). CMYK images (CMYK JPEGs)
 * are converted with PIL's own arithmetic, not libvips' ICC transform (see cmykToRgb). JPEG
 * decoders differ in the last bit (libjpeg-turbo versions, IDCT choice): compare pixels only
 * with the same decoder.
 */
import type { Metadata, OutputInfo } from 'sharp';
import { loadSharp } from '../load-sharp.js';

/** Thrown for a file that is not a decodable 8-bit image; the reader skips it with this reason. */
export class ImageDecodeError extends Error {
  override readonly name = 'ImageDecodeError';
}

/** A decoded image: [height, width, 3] RGB bytes, row-major. */
export interface RgbImage {
  readonly pixels: Uint8Array;
  readonly height: number;
  readonly width: number;
}

/** The first line of a libvips message (it repeats the same warning many times). */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** What the file header says: size, format and libvips' colour space name ('srgb', 'b-w', 'cmyk', ...). */
export interface ImageHeader {
  readonly height: number;
  readonly width: number;
  readonly format: string;
  readonly space: string | undefined;
}

/** Width, height and format from the file header alone (fast, but blind to truncated data). */
export async function readImageHeader(bytes: Uint8Array): Promise<ImageHeader> {
  let meta: Metadata;
  try {
    meta = await (await loadSharp())(bytes, { failOn: 'warning' }).metadata();
  } catch (error) {
    throw new ImageDecodeError(`not a readable image (${firstLine(error)})`);
  }
  if (meta.width === undefined || meta.height === undefined || meta.format === undefined) {
    throw new ImageDecodeError('the header gives no width, height or format');
  }
  if (meta.depth !== undefined && meta.depth !== 'uchar' && meta.depth !== 'char') {
    // libvips would rescale 16-bit data through a colourspace change; PIL's convert('RGB')
    // clips instead. Rather than guess, refuse: COCO images are 8-bit.
    throw new ImageDecodeError(`${meta.format} with ${meta.depth} samples; only 8-bit images are read, convert it to 8 bits`);
  }
  return { height: meta.height, width: meta.width, format: meta.format, space: meta.space };
}

/** Pillow's MULDIV255 (libImaging/ImagingUtils.h): a*b/255 rounded, in integer arithmetic. */
function mulDiv255(a: number, b: number): number {
  const t = a * b + 128;
  return ((t >> 8) + t) >> 8;
}

/**
 * CMYK (ink amounts, 255 = full ink) to RGB exactly as Pillow's convert('RGB') does, cmyk2rgb in
 * libImaging/Convert.c: nk = 255 - k; each of r, g, b = nk - MULDIV255(ink, nk). No colour
 * profile: libvips' default, an ICC transform through its CMYK profile, differed from PIL by up
 * to 127 per value (mean 16) on fixtures/coco-odd/images/cmyk.jpg. The ink values are what both read from a JPEG: Pillow
 * decodes every 4-channel JPEG as "CMYK;I" (inverted, Adobe's convention) and libvips 8.18
 * inverts every CMYK JPEG too, with or without the Adobe marker.
 */
export function cmykToRgb(cmyk: Uint8Array): Uint8Array {
  const pixels = cmyk.length / 4;
  const rgb = new Uint8Array(pixels * 3);
  for (let p = 0; p < pixels; p++) {
    const nk = 255 - cmyk[p * 4 + 3]!;
    // PIL clips with CLIP8; nk - MULDIV255(ink, nk) already lies in 0..nk.
    rgb[p * 3] = nk - mulDiv255(cmyk[p * 4]!, nk);
    rgb[p * 3 + 1] = nk - mulDiv255(cmyk[p * 4 + 1]!, nk);
    rgb[p * 3 + 2] = nk - mulDiv255(cmyk[p * 4 + 2]!, nk);
  }
  return rgb;
}

/** The decoded CMYK channels as libvips reads them, no colour conversion at all (the CMYK pipeline). */
async function decodeCmyk(bytes: Uint8Array): Promise<{ data: Buffer; info: OutputInfo }> {
  return (await loadSharp())(bytes, { failOn: 'warning', ignoreIcc: true })
    .pipelineColourspace('cmyk')
    .toColourspace('cmyk')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
}

/** Decodes JPEG/PNG (or any 8-bit format libvips reads) bytes to RGB; any warning is an error. */
export async function decodeRgb(bytes: Uint8Array): Promise<RgbImage> {
  const header = await readImageHeader(bytes);
  try {
    if (header.space === 'cmyk') {
      const { data, info } = await decodeCmyk(bytes);
      if (info.channels !== 4) throw new ImageDecodeError(`CMYK decoded to ${info.channels} channels, expected 4`);
      return { pixels: cmykToRgb(data), height: info.height, width: info.width };
    }
    // failOn 'warning': a truncated JPEG decodes with grey blocks and a warning in libjpeg;
    // here it is an error, so that a damaged file is reported rather than trained on.
    const { data, info } = await (await loadSharp())(bytes, { failOn: 'warning', ignoreIcc: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new ImageDecodeError(`decoded to ${info.channels} channels, expected 3`);
    // A plain Uint8Array over the Buffer's exact bytes (Buffers may share a larger pool).
    return { pixels: new Uint8Array(data.buffer, data.byteOffset, data.length), height: info.height, width: info.width };
  } catch (error) {
    if (error instanceof ImageDecodeError) throw error;
    throw new ImageDecodeError(`cannot decode it (${firstLine(error)})`);
  }
}
