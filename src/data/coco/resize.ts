/**
 * Host-side uint8 resizing written out by hand, so that collate stays synchronous and writes
 * straight into the batch buffer (no intermediate image per sample).
 *
 * Both use the half-pixel-centre grid of cv2.resize and tf.image.resize(half_pixel_centers):
 * output pixel d samples source coordinate (d + 0.5) * src/dst - 0.5.
 */

/** Where to write: `dst` at `offset`, rows `rowStride` elements apart (the letterbox canvas). */
export interface Target {
  readonly dst: Uint8Array;
  readonly offset: number;
  readonly rowStride: number;
}

/** The two neighbours and the weight of the second along one axis, per output position. */
function linearTaps(src: number, out: number): { i0: Int32Array; i1: Int32Array; f: Float64Array } {
  const i0 = new Int32Array(out);
  const i1 = new Int32Array(out);
  const f = new Float64Array(out);
  const ratio = src / out;
  for (let d = 0; d < out; d++) {
    // Clamp to the edge pixel outside [0, src-1], as cv2 (BORDER_REPLICATE) does.
    const s = Math.min(Math.max((d + 0.5) * ratio - 0.5, 0), src - 1);
    const lo = Math.floor(s);
    i0[d] = lo;
    i1[d] = Math.min(lo + 1, src - 1);
    f[d] = s - lo;
  }
  return { i0, i1, f };
}

/**
 * Bilinear resize of a [srcH, srcW, channels] uint8 image to [outH, outW, channels] written into
 * `target`. Plain bilinear (no antialiasing filter when shrinking, unlike PIL's BILINEAR), float
 * weights, rounded half up: it can differ from cv2's 11-bit fixed-point result by 1.
 */
export function resizeBilinear(src: Uint8Array, srcH: number, srcW: number, channels: number, outH: number, outW: number, target: Target): void {
  const xs = linearTaps(srcW, outW);
  const ys = linearTaps(srcH, outH);
  const { dst, offset, rowStride } = target;
  for (let y = 0; y < outH; y++) {
    const row0 = ys.i0[y]! * srcW * channels;
    const row1 = ys.i1[y]! * srcW * channels;
    const fy = ys.f[y]!;
    let o = offset + y * rowStride;
    for (let x = 0; x < outW; x++) {
      const c0 = xs.i0[x]! * channels;
      const c1 = xs.i1[x]! * channels;
      const fx = xs.f[x]!;
      for (let c = 0; c < channels; c++) {
        const top = src[row0 + c0 + c]! + (src[row0 + c1 + c]! - src[row0 + c0 + c]!) * fx;
        const bottom = src[row1 + c0 + c]! + (src[row1 + c1 + c]! - src[row1 + c0 + c]!) * fx;
        dst[o++] = Math.floor(top + (bottom - top) * fy + 0.5);
      }
    }
  }
}

/** The nearest source index per output position: floor((d + 0.5) * src/out), as PIL NEAREST. */
function nearestTaps(src: number, out: number): Int32Array {
  const taps = new Int32Array(out);
  for (let d = 0; d < out; d++) taps[d] = Math.min(Math.floor(((d + 0.5) * src) / out), src - 1);
  return taps;
}

/**
 * Nearest-neighbour resize of a [srcH, srcW] uint8 label mask to [outH, outW] into `target`:
 * labels are never blended (cv2 INTER_NEAREST_EXACT / PIL NEAREST sampling).
 */
export function resizeNearest(src: Uint8Array, srcH: number, srcW: number, outH: number, outW: number, target: Target): void {
  const xs = nearestTaps(srcW, outW);
  const ys = nearestTaps(srcH, outH);
  const { dst, offset, rowStride } = target;
  for (let y = 0; y < outH; y++) {
    const row = ys[y]! * srcW;
    const o = offset + y * rowStride;
    for (let x = 0; x < outW; x++) dst[o + x] = src[row + xs[x]!]!;
  }
}
