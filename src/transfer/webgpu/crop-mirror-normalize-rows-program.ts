import { util } from '@tensorflow/tfjs-core';
import { webgpu_util, type WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import type { CropMirrorNormalizeGeometry } from '../kernels/crop-mirror-normalize.js';
import { channelConstants, phaseOf } from './crop-mirror-normalize-wgsl.js';

/** Output elements per invocation (four vec4 stores). */
const PER_INVOCATION = 16;

/** Elements in one output row: a cropped frame row (HWC, w * C values) or one channel of it (CHW, w values). */
export function outputRowLength(g: CropMirrorNormalizeGeometry): number {
  return g.layout === 'HWC' ? g.crop.width * g.channels : g.crop.width;
}

/** Whether the rows program can run: rows of at least 16 elements (an invocation then spans at most two rows). */
export function fitsRowsProgram(g: CropMirrorNormalizeGeometry): boolean {
  return outputRowLength(g) >= PER_INVOCATION && util.sizeFromShape(g.outputShape) >= 4;
}

/**
 * The general crop-mirror-normalize program (any crop, mirror, HWC or CHW): each invocation
 * writes 16 consecutive output elements with four 16-byte stores. Where the first program
 * (crop-mirror-normalize-program.ts) divides by six geometry uniforms per element, this one
 * works out the output row of its first element once (two or three integer divisions per
 * invocation; one more set when its 16 elements run into the next row), and then each
 * element's source byte is a step along its row:
 * - HWC: src = rowStart + off, mirrored rowStart + 2c - off (rowStart at the last pixel of the
 *   cropped row; channel c = flat index mod C, since a row holds whole pixels);
 * - CHW: src = rowStart + off * C, mirrored rowStart - off * C (rowStart at channel c).
 * Every byte is read with its own 4-byte load (crops start anywhere, so loads are unaligned).
 * Same f32 subtraction and division as the first program, so both give the same bits.
 * Geometry travels as uniforms (one pipeline serves every frame size and crop offset); the
 * output covers 4 * floor(size / 4) elements, the last 1-3 left to the first program.
 */
export class CropMirrorNormalizeRowsProgram implements WebGPUProgram {
  readonly variableNames = ['pixels'];
  // Words bound as i32 (tfjs would bind inputs as vec4s like the output).
  readonly variableComponents = [1];
  readonly outputComponent = 4;
  readonly outputShape: number[];
  readonly shaderKey: string;
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number] = [256, 1, 1];
  // Adds `uniforms.size` = number of output vec4s.
  readonly size = true;
  readonly uniforms = 'inHeight : i32, inWidth : i32, cropY : i32, cropX : i32, outHeight : i32, outWidth : i32,';
  private readonly geometry: CropMirrorNormalizeGeometry;

  constructor(geometry: CropMirrorNormalizeGeometry) {
    if (!fitsRowsProgram(geometry)) throw new RangeError(`the rows program needs output rows of at least ${PER_INVOCATION} elements`);
    this.geometry = geometry;
    this.outputShape = geometry.outputShape;
    const invocations = Math.ceil(Math.floor(util.sizeFromShape(geometry.outputShape) / 4) / 4);
    this.dispatchLayout = webgpu_util.flatDispatchLayout([invocations]);
    this.dispatch = webgpu_util.computeDispatch(this.dispatchLayout, [invocations], this.workgroupSize);
    const { channels, mirror, layout, mean, std } = geometry;
    this.shaderKey = `cropMirrorNormalizeRows_${channels}_${mirror}_${layout}_${mean.join(',')}_${std.join(',')}`;
  }

  /** The values of `uniforms` above, in order. */
  uniformData(): Array<{ type: 'int32'; data: number[] }> {
    const { inHeight, inWidth, crop } = this.geometry;
    return [inHeight, inWidth, crop.y, crop.x, crop.height, crop.width].map((v) => ({ type: 'int32', data: [v] }));
  }

  getUserCode(): string {
    const { channels: C, mirror, layout, mean, std } = this.geometry;
    const hwc = layout === 'HWC';
    // Row r of the output: HWC rows are (frame, y); CHW rows are (frame, c, y).
    const rowCoords = hwc ? 'let f = r / h; let y = r - f * h; let c = 0;' : `let q = r / h; let y = r - q * h; let f = q / ${C}; let c = q - f * ${C};`;
    // Lane offsets along the row of the 4 elements of vec4 j, and their source bytes.
    const source = (j: number): string => {
      const lanes = `let off = vec4<i32>(off0 + ${4 * j}) + vec4<i32>(0, 1, 2, 3);
            let wrap = off >= vec4<i32>(rowLen);
            let o = select(off, off - vec4<i32>(rowLen), wrap);
            let start = select(vec4<i32>(a.x), vec4<i32>(b.x), wrap);`;
      if (!hwc) return `${lanes}\n            let src = start ${mirror ? '-' : '+'} o * ${C};`;
      if (!mirror) return `${lanes}\n            let src = start + o;`;
      const channel = C === 1 ? 'vec4<i32>(0)' : `(vec4<i32>(phase + ${4 * j}) + vec4<i32>(0, 1, 2, 3)) % vec4<i32>(${C})`;
      return `${lanes}\n            let src = start + 2 * (${channel}) - o;`;
    };
    const constants = (j: number): [string, string] => {
      if (hwc) {
        const q = phaseOf('phase', j, C);
        return [`mean4(${q})`, `std4(${q})`];
      }
      return ['select(vec4<f32>(meanA), vec4<f32>(meanB), wrap)', 'select(vec4<f32>(stdA), vec4<f32>(stdB), wrap)'];
    };
    const store = (j: number): string => {
      const [m, s] = constants(j);
      return `if (first + ${j} < uniforms.size) {
            ${source(j)}
            let x = vec4<f32>(byteAt(src.x), byteAt(src.y), byteAt(src.z), byteAt(src.w));
            setOutputAtIndex(first + ${j}, (x - ${m}) / ${s});
          }`;
    };
    return `
      ${channelConstants(mean, std)}

      fn byteAt(src : i32) -> f32 {
        let word = bitcast<u32>(pixels[src >> 2u]);
        return f32((word >> (8u * u32(src & 3))) & 0xffu);
      }

      // Source byte of output row r's first element (mirrored: of its last source pixel), and its channel (CHW).
      fn rowStart(r : i32) -> vec2<i32> {
        let h = uniforms.outHeight;
        ${rowCoords}
        let pixel = (f * uniforms.inHeight + uniforms.cropY + y) * uniforms.inWidth + uniforms.cropX${mirror ? ' + uniforms.outWidth - 1' : ''};
        return vec2<i32>(pixel * ${C} + c, c);
      }

      fn main(index : i32) {
        let first = index * 4;
        if (first >= uniforms.size) {
          return;
        }
        let rowLen = uniforms.outWidth${hwc ? ` * ${C}` : ''};
        let e0 = index * ${PER_INVOCATION};
        let r0 = e0 / rowLen;
        let off0 = e0 - r0 * rowLen;
        let a = rowStart(r0);
        // Rows hold at least 16 elements: the invocation's elements reach at most into the next row.
        var b = a;
        if (off0 + ${PER_INVOCATION - 1} >= rowLen) {
          b = rowStart(r0 + 1);
        }
        ${hwc ? `let phase = ${C === 1 ? '0' : `e0 % ${C}`};` : 'let meanA = meanOf(a.y); let stdA = stdOf(a.y); let meanB = meanOf(b.y); let stdB = stdOf(b.y);'}
        ${[0, 1, 2, 3].map(store).join('\n        ')}
      }
    `;
  }
}
