import { util } from '@tensorflow/tfjs-core';
import { webgpu_util, type WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import type { CropMirrorNormalizeGeometry } from '../kernels/crop-mirror-normalize.js';
import { f32Literal } from './normalize-packed-program.js';

/**
 * WGSL program for tfjs-backend-webgpu: one invocation per output element. It works out the
 * element's frame, channel, row and column from its flat index in the output layout, reads the
 * one source byte it needs from the packed uint8 words (cropped, mirrored, channels-last
 * input), and writes (x - mean[c]) / std[c]: crop, mirror, normalize and layout change in a
 * single pass over the output, with no intermediate tensor.
 *
 * Channels, mirror, layout and the per-channel constants are compiled into the shader (they
 * name the preprocessing); frame geometry travels as uniforms, so a new image size reuses it.
 *
 * The first program of the harness, kept as the `scalar` variant for side-by-side measurement;
 * the vec4 programs (crop-mirror-normalize-flat-program.ts, -rows-program.ts) are the fast
 * ones. With `firstIndex` it writes only the elements from there on (the 1-3 elements a vec4
 * program cannot store), into an output the caller passes to runWebGPUProgram.
 */
export class CropMirrorNormalizeProgram implements WebGPUProgram {
  readonly variableNames = ['pixels'];
  readonly outputShape: number[];
  readonly shaderKey: string;
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number] = [64, 1, 1];
  // Adds `uniforms.size` = number of output elements.
  readonly size = true;
  readonly uniforms: string = 'inHeight : i32, inWidth : i32, cropY : i32, cropX : i32, outHeight : i32, outWidth : i32,';
  private readonly geometry: CropMirrorNormalizeGeometry;
  private readonly firstIndex: number;

  constructor(geometry: CropMirrorNormalizeGeometry, firstIndex = 0) {
    this.geometry = geometry;
    this.firstIndex = firstIndex;
    this.outputShape = geometry.outputShape;
    const count = util.sizeFromShape(geometry.outputShape) - firstIndex;
    if (count < 1) throw new RangeError(`firstIndex ${firstIndex} leaves no element to write`);
    this.dispatchLayout = webgpu_util.flatDispatchLayout([count]);
    this.dispatch = webgpu_util.computeDispatch(this.dispatchLayout, [count], this.workgroupSize);
    const { channels, mirror, layout, mean, std } = geometry;
    this.shaderKey = `cropMirrorNormalize_${channels}_${mirror}_${layout}_${mean.join(',')}_${std.join(',')}`;
    if (firstIndex > 0) {
      this.uniforms += 'firstIndex : i32,';
      this.shaderKey += '_tail';
    }
  }

  /** The values of `uniforms` above, in order. */
  uniformData(): Array<{ type: 'int32'; data: number[] }> {
    const { inHeight, inWidth, crop } = this.geometry;
    const values = [inHeight, inWidth, crop.y, crop.x, crop.height, crop.width, ...(this.firstIndex > 0 ? [this.firstIndex] : [])];
    return values.map((v) => ({ type: 'int32', data: [v] }));
  }

  getUserCode(): string {
    const { channels: C, mirror, layout, mean, std } = this.geometry;
    const coords =
      layout === 'CHW'
        ? `let x = index % w; let rest = index / w; let y = rest % h; let fc = rest / h; let c = fc % ${C}; let f = fc / ${C};`
        : `let c = index % ${C}; let p = index / ${C}; let x = p % w; let q = p / w; let y = q % h; let f = q / h;`;
    return `
      var<private> MEAN : array<f32, ${C}> = array<f32, ${C}>(${mean.map(f32Literal).join(', ')});
      var<private> STD : array<f32, ${C}> = array<f32, ${C}>(${std.map(f32Literal).join(', ')});

      fn main(invocation : i32) {
        let index = invocation${this.firstIndex > 0 ? ' + uniforms.firstIndex' : ''};
        if (index >= uniforms.size) {
          return;
        }
        let w = uniforms.outWidth;
        let h = uniforms.outHeight;
        ${coords}
        let sx = uniforms.cropX + ${mirror ? 'w - 1 - x' : 'x'};
        let src = ((f * uniforms.inHeight + uniforms.cropY + y) * uniforms.inWidth + sx) * ${C} + c;
        let word = bitcast<u32>(pixels[src / 4]);
        let v = f32((word >> (8u * u32(src % 4))) & 0xffu);
        setOutputAtIndex(index, (v - MEAN[c]) / STD[c]);
      }
    `;
  }
}
