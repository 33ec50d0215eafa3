/**
 * COCO run-length encoding (RLE) of binary masks, ported from pycocotools' C core
 * (cocodataset/cocoapi, common/maskApi.c: rleEncode, rleDecode, rleArea, rleToString,
 * rleFrString).
 *
 * An RLE lists alternating run lengths of 0s and 1s, starting with 0s (so counts[0] may be 0),
 * over the pixels in COLUMN-MAJOR order (down each column, then the next column to the right),
 * as Matlab and pycocotools store masks. The runs must add up to height*width.
 */

/** Thrown for RLE data that cannot be a mask of the stated size; the message says why. */
export class RleError extends Error {
  override readonly name = 'RleError';
}

/** An uncompressed RLE: the run lengths (0s first) of a height x width mask, column-major. */
export interface Rle {
  readonly height: number;
  readonly width: number;
  readonly counts: Uint32Array;
}

const UINT32_LIMIT = 0x1_0000_0000;
/** rleToString writes 5 payload bits per character, offset into the ASCII range '0'..'o'. */
const CHAR_OFFSET = 48;
const CHAR_MAX = 48 + 63;

function checkSize(height: number, width: number): void {
  if (!Number.isSafeInteger(height) || height < 0 || !Number.isSafeInteger(width) || width < 0) {
    throw new RleError(`size must be two integers [height, width] >= 0, got [${height}, ${width}]`);
  }
}

/** An Rle after checking that its runs are uint32 and add up to exactly height*width pixels. */
export function makeRle(height: number, width: number, counts: ArrayLike<number>): Rle {
  checkSize(height, width);
  const out = new Uint32Array(counts.length);
  let total = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (!Number.isInteger(c) || c < 0 || c >= UINT32_LIMIT) {
      throw new RleError(`run ${i} is ${c}; runs must be integers in [0, 2^32)`);
    }
    out[i] = c;
    total += c;
  }
  // pycocotools does not check this: rleDecode then writes past (or short of) its h*w buffer.
  if (total !== height * width) {
    throw new RleError(`runs add up to ${total} pixels, but size [${height}, ${width}] has ${height * width}`);
  }
  return { height, width, counts: out };
}

/** The runs of a compressed COCO counts string (maskApi.c rleFrString), checked against the size. */
export function decodeRleString(counts: string, height: number, width: number): Rle {
  const runs: number[] = [];
  let p = 0;
  while (p < counts.length) {
    // One value: 5-bit groups, least significant first; bit 0x20 says another group follows,
    // and bit 0x10 of the last group is the sign (sign-extended as `x |= -1 << 5*k`).
    let x = 0;
    let k = 0;
    let more = true;
    while (more) {
      if (p >= counts.length) {
        throw new RleError(`counts string ends inside a value at character ${p} (its last character has the continuation bit 0x20)`);
      }
      const code = counts.charCodeAt(p);
      if (code < CHAR_OFFSET || code > CHAR_MAX) {
        throw new RleError(`character ${JSON.stringify(counts[p])} at ${p} is outside '0'..'o', the alphabet of COCO compressed RLE`);
      }
      const c = code - CHAR_OFFSET;
      // Multiply rather than shift: JS shifts are 32-bit, the C code shifts a long.
      x += (c & 0x1f) * 2 ** (5 * k);
      more = (c & 0x20) !== 0;
      p++;
      k++;
      if (!more && (c & 0x10) !== 0) x -= 2 ** (5 * k);
    }
    // maskApi.c stores counts[i] - counts[i-2] from the 4th value on (`if(m>2)`), not from the
    // 3rd: a quirk of the format that both directions share.
    const m = runs.length;
    if (m > 2) x += runs[m - 2]!;
    if (x < 0 || x >= UINT32_LIMIT) {
      throw new RleError(`value ${m} decodes to ${x}, not a run length in [0, 2^32)`);
    }
    runs.push(x);
  }
  return makeRle(height, width, runs);
}

/** The compressed COCO counts string of an RLE (maskApi.c rleToString), as in instances JSON. */
export function encodeRleString(rle: Rle): string {
  const { counts } = rle;
  let out = '';
  for (let i = 0; i < counts.length; i++) {
    let x = counts[i]!;
    if (i > 2) x -= counts[i - 2]!;
    let more = true;
    while (more) {
      // Arithmetic instead of `x & 0x1f; x >>= 5`, exact for the negative deltas too.
      const low = ((x % 32) + 32) % 32;
      x = (x - low) / 32;
      let c = low;
      more = (c & 0x10) !== 0 ? x !== -1 : x !== 0;
      if (more) c |= 0x20;
      out += String.fromCharCode(c + CHAR_OFFSET);
    }
  }
  return out;
}

/** The RLE of a row-major height x width mask (nonzero = 1), scanned column-major as rleEncode. */
export function encodeRle(mask: Uint8Array, height: number, width: number): Rle {
  checkSize(height, width);
  if (mask.length !== height * width) {
    throw new RleError(`mask holds ${mask.length} bytes, but [${height}, ${width}] needs ${height * width}`);
  }
  const runs: number[] = [];
  let value = 0;
  let run = 0;
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      const v = mask[y * width + x] === 0 ? 0 : 1;
      if (v !== value) {
        runs.push(run);
        run = 0;
        value = v;
      }
      run++;
    }
  }
  runs.push(run);
  return { height, width, counts: Uint32Array.from(runs) };
}

/** Calls `paint(offset)` for each foreground pixel, offset = y*width + x in a row-major mask. */
export function forEachForegroundPixel(rle: Rle, paint: (rowMajorOffset: number) => void): void {
  const { height, width, counts } = rle;
  let p = 0; // column-major position
  for (let i = 0; i < counts.length; i++) {
    const run = counts[i]!;
    if (i % 2 === 1) {
      for (let q = p; q < p + run; q++) {
        const x = Math.floor(q / height);
        paint((q - x * height) * width + x);
      }
    }
    p += run;
  }
}

/** The row-major height x width 0/1 mask of an RLE: mask[y*width + x] = pycocotools decode(rle)[y, x]. */
export function decodeRle(rle: Rle): Uint8Array {
  const mask = new Uint8Array(rle.height * rle.width);
  forEachForegroundPixel(rle, (offset) => {
    mask[offset] = 1;
  });
  return mask;
}

/** The mask in maskApi.c rleDecode's own order, column-major: byte x*height + y (numpy order='F'). */
export function decodeRleColumnMajor(rle: Rle): Uint8Array {
  const mask = new Uint8Array(rle.height * rle.width);
  let p = 0;
  rle.counts.forEach((run, i) => {
    if (i % 2 === 1) mask.fill(1, p, p + run);
    p += run;
  });
  return mask;
}

/** The number of foreground pixels (maskApi.c rleArea: the sum of the odd runs). */
export function rleArea(rle: Rle): number {
  let area = 0;
  for (let i = 1; i < rle.counts.length; i += 2) area += rle.counts[i]!;
  return area;
}
