/**
 * Image files to raw RGB bytes with sharp (libvips), matching what torchvision's COCO loaders do
 * with PIL: `Image.open(path).convert('RGB')`. So: 3 channels always (grey replicated to R=G=B,
 * alpha dropped, not composited), no EXIF auto-rotation (PIL does not rotate either), and no ICC
 * colour management (`ignoreIcc`, PIL's convert ignores profiles too). JPEG decoders differ in
 * the last bit (libjpeg-turbo versions, IDCT choice): compare pixels only with the same decoder.
 */
import sharp, { type Metadata } from 'sharp';

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

/** Width, height and format from the file header alone (fast, but blind to truncated data). */
export async function readImageHeader(bytes: Uint8Array): Promise<{ height: number; width: number; format: string }> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { failOn: 'warning' }).metadata();
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
  return { height: meta.height, width: meta.width, format: meta.format };
}

/** Decodes JPEG/PNG (or any 8-bit format libvips reads) bytes to RGB; any warning is an error. */
export async function decodeRgb(bytes: Uint8Array): Promise<RgbImage> {
  await readImageHeader(bytes);
  try {
    // failOn 'warning': a truncated JPEG decodes with grey blocks and a warning in libjpeg;
    // here it is an error, so that a damaged file is reported rather than trained on.
    const { data, info } = await sharp(bytes, { failOn: 'warning', ignoreIcc: true })
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
