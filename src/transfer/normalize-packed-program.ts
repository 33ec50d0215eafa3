import { webgpu_util, type WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import type { Normalization } from './normalization.js';

/** Formats a number as a WGSL f32 literal ('127.5' -> '127.5f', '1' -> '1.0f'). */
function f32(value: number): string {
  const text = String(value);
  return /[.eE]/.test(text) ? `${text}f` : `${text}.0f`;
}

/**
 * WGSL program for tfjs-backend-webgpu: each invocation reads one 32-bit word, extracts its 4
 * bytes with shifts (exact integers, unlike unpack4x8unorm's x/255) and writes
 * (x - mean) / std for each pixel that exists; the padding bytes of the last word are skipped.
 */
export class NormalizePackedBytesProgram implements WebGPUProgram {
  readonly variableNames = ['packed'];
  readonly outputShape: number[];
  readonly shaderKey: string;
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number] = [64, 1, 1];
  // Adds `uniforms.size` = number of output elements.
  readonly size = true;
  private readonly normalization: Normalization;

  constructor(outputShape: number[], normalization: Normalization) {
    this.outputShape = outputShape;
    this.normalization = { mean: normalization.mean, std: normalization.std };
    const words = Math.ceil(outputShape.reduce((a, b) => a * b, 1) / 4);
    this.dispatchLayout = webgpu_util.flatDispatchLayout([words]);
    this.dispatch = webgpu_util.computeDispatch(this.dispatchLayout, [words], this.workgroupSize);
    this.shaderKey = `normalizePackedBytes_${normalization.mean}_${normalization.std}`;
  }

  getUserCode(): string {
    const { mean, std } = this.normalization;
    return `
      fn main(index : i32) {
        let first = index * 4;
        if (first < uniforms.size) {
          let word = bitcast<u32>(packed[index]);
          for (var k = 0; k < 4; k++) {
            let flat = first + k;
            if (flat < uniforms.size) {
              let x = f32((word >> (8u * u32(k))) & 0xffu);
              setOutputAtIndex(flat, (x - ${f32(mean)}) / ${f32(std)});
            }
          }
        }
      }
    `;
  }
}
