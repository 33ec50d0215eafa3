/**
 * The sizes a user types on the command line: `--size HxW` (what images are resized to) and
 * `--shape NxHxWxC` (a synthetic NHWC batch). Pure functions, so the CLI can turn a
 * ShapeParseError into its usage error (exit 2) and every message stays one line.
 */

/** Thrown for a `--size` or `--shape` text that is not a usable size; the message is one line. */
export class ShapeParseError extends Error {
  override readonly name = 'ShapeParseError';
}

/** An image size in pixels. */
export interface ImageSize {
  readonly height: number;
  readonly width: number;
}

/** An NHWC batch shape: [batch, height, width, channels]. */
export type NhwcShape = readonly [batch: number, height: number, width: number, channels: number];

/** The largest side `--size` takes: far beyond any input size, small enough to fail fast on typos. */
export const MAX_IMAGE_SIDE = 8192;

/** The most bytes one `--shape` batch may hold (a larger one would not fit many devices' buffers). */
export const MAX_BATCH_BYTES = 2 ** 30;

/** `'224x224'` split at x (either case); undefined unless there are exactly `parts` pieces. */
function splitDims(text: string, parts: number): string[] | undefined {
  const pieces = text.trim().split(/[xX]/);
  return pieces.length === parts ? pieces : undefined;
}

/**
 * A whole number in [1, max] written as plain digits: '1e3', '2.0', '+5', '0x10' and '' are
 * refused rather than read the way Number() would, so that what the user typed is what runs.
 */
function dimension(flag: string, text: string, name: string, piece: string, max: number, example: string): number {
  const value = /^\d+$/.test(piece) ? Number(piece) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new ShapeParseError(`${flag} ${text}: ${name} must be a whole number from 1 to ${max}, got "${piece}"; write e.g. ${flag} ${example}`);
  }
  return value;
}

/** Parses `--size HxW`, e.g. '224x224' -> { height: 224, width: 224 }; each side 1..8192. */
export function parseSize(text: string): ImageSize {
  const flag = '--size';
  const pieces = splitDims(text, 2);
  if (pieces === undefined) throw new ShapeParseError(`${flag} "${text}": expected HEIGHTxWIDTH, e.g. ${flag} 224x224`);
  const [h, w] = pieces as [string, string];
  return {
    height: dimension(flag, text, 'height', h, MAX_IMAGE_SIDE, '224x224'),
    width: dimension(flag, text, 'width', w, MAX_IMAGE_SIDE, '224x224'),
  };
}

/** Bytes in words, for the size-limit message: '3 GiB', '512 MiB'. */
function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(bytes % 2 ** 30 === 0 ? 0 : 2)} GiB`;
  return `${(bytes / 2 ** 20).toFixed(bytes % 2 ** 20 === 0 ? 0 : 2)} MiB`;
}

/**
 * Parses `--shape NxHxWxC`, e.g. '16x512x512x3' -> [16, 512, 512, 3]: positive whole numbers,
 * C from 1 to 4 (grey, grey+alpha, RGB, RGBA), and at most 1 GiB in all. `bytesPerElement` is
 * the widest element that will be made of it (default 1, uint8; pass 4 when float32 copies of
 * the batch are built too), so that the limit holds for the biggest buffer, not the smallest.
 */
export function parseShape(text: string, bytesPerElement = 1): NhwcShape {
  const flag = '--shape';
  const example = '16x512x512x3';
  const pieces = splitDims(text, 4);
  if (pieces === undefined) throw new ShapeParseError(`${flag} "${text}": expected NxHxWxC (batch x height x width x channels), e.g. ${flag} ${example}`);
  if (!Number.isSafeInteger(bytesPerElement) || bytesPerElement < 1)
    throw new RangeError(`parseShape: bytesPerElement must be an integer >= 1, got ${bytesPerElement}`);
  const [n, h, w, c] = pieces as [string, string, string, string];
  // Each side alone may be up to the byte limit; their product is checked below.
  const shape: NhwcShape = [
    dimension(flag, text, 'N (batch)', n, MAX_BATCH_BYTES, example),
    dimension(flag, text, 'H (height)', h, MAX_BATCH_BYTES, example),
    dimension(flag, text, 'W (width)', w, MAX_BATCH_BYTES, example),
    dimension(flag, text, 'C (channels)', c, 4, example),
  ];
  // Exact up to 2^53, far above the limit; a product past that is rounded but still over it.
  const bytes = shape.reduce((a, b) => a * b, bytesPerElement);
  if (bytes > MAX_BATCH_BYTES) {
    const per = bytesPerElement === 1 ? 'uint8' : `${bytesPerElement}-byte elements`;
    throw new ShapeParseError(
      `${flag} ${text}: ${formatBytes(bytes)} as ${per}, over the ${formatBytes(MAX_BATCH_BYTES)} limit; use a smaller batch or image size`,
    );
  }
  return shape;
}
