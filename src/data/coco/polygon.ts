/**
 * Polygon rasterization exactly as pycocotools does it: a line-for-line port of rleFrPoly in
 * cocodataset/cocoapi, common/maskApi.c (what COCO.annToMask runs for polygon segmentations).
 *
 * The algorithm: scale the vertices by 5 and round them to integers, walk every edge with a DDA
 * to get a dense 8-connected boundary, keep the points where the boundary crosses a pixel-column
 * centre (x = 0.5, 1.5, ... in pixel units after downsampling), and read those crossings as the
 * starts and ends of vertical runs in a column-major RLE. A pixel (x, y) is inside when its
 * centre (x+0.5, y+0.5) lies inside the polygon, with ties settled by the rounding below.
 * Integer casts in C truncate toward zero, hence Math.trunc; doubles behave identically in JS.
 */
import { makeRle, type Rle, RleError } from './rle.js';

const SCALE = 5;

/** The dense integer boundary (u, v) of the polygon upsampled by SCALE: maskApi.c's first loop. */
function denseBoundary(xy: readonly number[], k: number): { u: number[]; v: number[] } {
  const x = new Array<number>(k + 1);
  const y = new Array<number>(k + 1);
  for (let j = 0; j < k; j++) x[j] = Math.trunc(SCALE * xy[j * 2]! + 0.5);
  x[k] = x[0]!;
  for (let j = 0; j < k; j++) y[j] = Math.trunc(SCALE * xy[j * 2 + 1]! + 0.5);
  y[k] = y[0]!;
  const u: number[] = [];
  const v: number[] = [];
  for (let j = 0; j < k; j++) {
    let xs = x[j]!;
    let xe = x[j + 1]!;
    let ys = y[j]!;
    let ye = y[j + 1]!;
    const dx = Math.abs(xe - xs);
    const dy = Math.abs(ys - ye);
    // Walk each edge in increasing x (flat edges) or y (steep edges), then emit points in the
    // edge's own direction, so that the same edge gives the same points either way round.
    const flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
    if (flip) {
      [xs, xe] = [xe, xs];
      [ys, ye] = [ye, ys];
    }
    // A zero-length edge (two vertices rounding to one point) gives s = 0/0 = NaN here as in C;
    // its single point has the same u as its neighbours, so the second loop never reads its v.
    const s = dx >= dy ? (ye - ys) / dx : (xe - xs) / dy;
    if (dx >= dy) {
      for (let d = 0; d <= dx; d++) {
        const t = flip ? dx - d : d;
        u.push(t + xs);
        v.push(Math.trunc(ys + s * t + 0.5));
      }
    } else {
      for (let d = 0; d <= dy; d++) {
        const t = flip ? dy - d : d;
        v.push(t + ys);
        u.push(Math.trunc(xs + s * t + 0.5));
      }
    }
  }
  return { u, v };
}

/** The column-major pixel offsets x*h + y where a vertical run flips: maskApi.c's second loop. */
function columnCrossings(u: readonly number[], v: readonly number[], height: number, width: number): number[] {
  const offsets: number[] = [];
  for (let j = 1; j < u.length; j++) {
    if (u[j] === u[j - 1]) continue;
    let xd = u[j]! < u[j - 1]! ? u[j]! : u[j]! - 1;
    xd = (xd + 0.5) / SCALE - 0.5;
    // Only boundary steps that land exactly on a pixel column (after downsampling) count.
    if (Math.floor(xd) !== xd || xd < 0 || xd > width - 1) continue;
    // The upper of the two boundary points (maskApi.c: v[j] < v[j-1] ? v[j] : v[j-1]).
    let yd = Math.min(v[j]!, v[j - 1]!);
    yd = (yd + 0.5) / SCALE - 0.5;
    if (yd < 0) yd = 0;
    else if (yd > height) yd = height;
    yd = Math.ceil(yd);
    offsets.push(xd * height + yd);
  }
  return offsets;
}

/** The RLE of the sorted crossing offsets: differences, with zero-length runs merged away. */
function runsFromCrossings(crossings: number[], height: number, width: number): number[] {
  const a = [...crossings, height * width].sort((p, q) => p - q);
  let previous = 0;
  for (let j = 0; j < a.length; j++) {
    const t = a[j]!;
    a[j] = t - previous;
    previous = t;
  }
  // A zero difference means two crossings at one pixel: they cancel, so the run after them
  // joins the run before (maskApi.c: `b[m-1] += a[j++]`).
  const b: number[] = [a[0]!];
  let j = 1;
  while (j < a.length) {
    if (a[j]! > 0) {
      b.push(a[j]!);
      j++;
    } else {
      j++;
      if (j < a.length) {
        b[b.length - 1]! += a[j]!;
        j++;
      }
    }
  }
  return b;
}

/**
 * The RLE of one COCO polygon [x0, y0, x1, y1, ...] in a height x width image, bit for bit as
 * pycocotools' rleFrPoly. Needs at least 3 points (6 numbers) and an even count of finite numbers.
 */
export function rasterizePolygon(xy: readonly number[], height: number, width: number): Rle {
  if (xy.length < 6 || xy.length % 2 !== 0) {
    // pycocotools 2.0.11 raises on a 4-number "polygon" (frPyObjects hands the list to frBbox,
    // which takes only a numpy array: TypeError), and silently drops an odd last number
    // (frPoly passes int(len(p)/2) points). Both are skipped here as malformed instead.
    throw new RleError(`a polygon needs an even number (>= 6) of coordinates, got ${xy.length}`);
  }
  const bad = xy.findIndex((c) => !Number.isFinite(c));
  if (bad !== -1) throw new RleError(`polygon coordinate ${bad} is ${xy[bad]}, not a finite number`);
  if (!Number.isSafeInteger(height) || height < 1 || !Number.isSafeInteger(width) || width < 1) {
    throw new RleError(`image size must be integers >= 1, got ${height}x${width}`);
  }
  const { u, v } = denseBoundary(xy, xy.length / 2);
  return makeRle(height, width, runsFromCrossings(columnCrossings(u, v, height, width), height, width));
}
