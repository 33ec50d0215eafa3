/**
 * torchvision's `transforms.Resize((h, w))` on a PIL image: `img.resize((w, h), Image.BILINEAR)`
 * (torchvision/transforms/functional_pil.py resize), i.e. Pillow's ImagingResample with the
 * bilinear (triangle) filter, written after Pillow's src/libImaging/Resample.c (Pillow 9.4, the
 * one Debian 12 ships; the code is unchanged from 7.0 to 11):
 * - precompute_coeffs: scale = in/out; when shrinking the filter's support (1 for bilinear) is
 *   widened by the scale, so every source pixel under the output pixel counts (the antialias);
 *   for output pixel xx, centre = (xx + 0.5) * scale, the window [trunc(centre - support + 0.5),
 *   trunc(centre + support + 0.5)) clipped to the image, weights filter((x - centre + 0.5) / s)
 *   normalised to sum 1 (s = max(scale, 1)).
 * - normalize_coeffs_8bpc: each weight to fixed point, trunc(0.5 + w * 2^22) (PRECISION_BITS =
 *   32 - 8 - 2 = 22; bilinear weights are never negative).
 * - two separable passes, horizontal first (only over the rows the vertical pass reads), each
 *   output sum starting at 2^21 (rounding) and clipped to 0..255 from sum >> 22, the
 *   intermediate image uint8; a pass whose size does not change is not run at all.
 * Same arithmetic in the same order (doubles for the weights, exact integers for the sums: they
 * stay below 2^31), so the result is Pillow's byte for byte.
 */

const PRECISION_BITS = 22;
const HALF = 1 << (PRECISION_BITS - 1);

/** Pillow's bilinear_filter: the triangle 1 - |x| on (-1, 1). */
function bilinear(x: number): number {
  const a = Math.abs(x);
  return a < 1 ? 1 - a : 0;
}

/** One pass's coefficients: per output index its first source index, count, and fixed-point weights (ksize per index). */
interface Coefficients {
  readonly ksize: number;
  readonly first: Int32Array;
  readonly count: Int32Array;
  readonly weights: Int32Array;
}

/** precompute_coeffs + normalize_coeffs_8bpc for inSize -> outSize over the whole source (box 0..inSize). */
export function resampleCoefficients(inSize: number, outSize: number): Coefficients {
  const scale = inSize / outSize;
  const filterScale = Math.max(scale, 1);
  const support = 1 * filterScale;
  const ksize = Math.ceil(support) * 2 + 1;
  const first = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const weights = new Int32Array(outSize * ksize);
  const k = new Float64Array(ksize);
  const ss = 1 / filterScale;
  for (let xx = 0; xx < outSize; xx++) {
    const center = (xx + 0.5) * scale;
    const xmin = Math.max(0, Math.trunc(center - support + 0.5));
    const xmax = Math.min(inSize, Math.trunc(center + support + 0.5)) - xmin;
    let ww = 0;
    for (let x = 0; x < xmax; x++) {
      const w = bilinear((x + xmin - center + 0.5) * ss);
      k[x] = w;
      ww += w;
    }
    for (let x = 0; x < xmax; x++) {
      const w = ww !== 0 ? k[x]! / ww : k[x]!;
      weights[xx * ksize + x] = w < 0 ? Math.trunc(-0.5 + w * (1 << PRECISION_BITS)) : Math.trunc(0.5 + w * (1 << PRECISION_BITS));
    }
    first[xx] = xmin;
    count[xx] = xmax;
  }
  return { ksize, first, count, weights };
}

/** Pillow's clip8: sum >> 22 clamped to 0..255. */
function clip8(sum: number): number {
  const v = sum >> PRECISION_BITS;
  return Math.min(255, Math.max(0, v));
}

/** Where the resized image goes: `dst` from `offset`, rows `rowStride` bytes apart. */
export interface ResizeTarget {
  readonly dst: Uint8Array;
  readonly offset: number;
  readonly rowStride: number;
}

/**
 * Resizes an [height, width, 3] RGB image to outHeight x outWidth as PIL's
 * `Image.resize((outWidth, outHeight), Image.BILINEAR)` does (see the file comment), writing
 * into `target` (default: a fresh packed buffer, returned).
 */
export function resizePilBilinear(
  src: Uint8Array,
  height: number,
  width: number,
  outHeight: number,
  outWidth: number,
  target: ResizeTarget = { dst: new Uint8Array(outHeight * outWidth * 3), offset: 0, rowStride: outWidth * 3 },
): Uint8Array {
  if (src.length !== height * width * 3) throw new RangeError(`resizePilBilinear: ${src.length} bytes is not a ${height}x${width} RGB image`);
  const needH = outWidth !== width;
  const needV = outHeight !== height;
  const vert = resampleCoefficients(height, outHeight);
  // The horizontal pass covers only the rows the vertical one reads (ybox_first..ybox_last).
  const yFirst = needV ? vert.first[0]! : 0;
  const yLast = needV ? vert.first[outHeight - 1]! + vert.count[outHeight - 1]! : height;
  let rows = src;
  let rowBase = 0;
  if (needH) {
    const horiz = resampleCoefficients(width, outWidth);
    rows = new Uint8Array((yLast - yFirst) * outWidth * 3);
    rowBase = yFirst;
    for (let y = yFirst; y < yLast; y++) {
      const inRow = y * width * 3;
      const outRow = (y - yFirst) * outWidth * 3;
      for (let xx = 0; xx < outWidth; xx++) {
        const xmin = horiz.first[xx]!;
        const n = horiz.count[xx]!;
        const kBase = xx * horiz.ksize;
        let s0 = HALF;
        let s1 = HALF;
        let s2 = HALF;
        for (let x = 0; x < n; x++) {
          const w = horiz.weights[kBase + x]!;
          const p = inRow + (xmin + x) * 3;
          s0 += src[p]! * w;
          s1 += src[p + 1]! * w;
          s2 += src[p + 2]! * w;
        }
        rows[outRow + xx * 3] = clip8(s0);
        rows[outRow + xx * 3 + 1] = clip8(s1);
        rows[outRow + xx * 3 + 2] = clip8(s2);
      }
    }
  }
  const { dst, offset, rowStride } = target;
  const rowBytes = outWidth * 3;
  if (!needV) {
    for (let y = 0; y < outHeight; y++) dst.set(rows.subarray(y * rowBytes, (y + 1) * rowBytes), offset + y * rowStride);
    return dst;
  }
  for (let yy = 0; yy < outHeight; yy++) {
    const ymin = vert.first[yy]! - rowBase;
    const n = vert.count[yy]!;
    const kBase = yy * vert.ksize;
    const out = offset + yy * rowStride;
    for (let i = 0; i < rowBytes; i++) {
      let s = HALF;
      for (let y = 0; y < n; y++) s += rows[(ymin + y) * rowBytes + i]! * vert.weights[kBase + y]!;
      dst[out + i] = clip8(s);
    }
  }
  return dst;
}
