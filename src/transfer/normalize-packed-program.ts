import { webgpu_util, type WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import { isIdentity, type Normalization } from './normalization.js';
import type { PackedWireDtype } from './wire-dtypes.js';

/** Formats a number as a WGSL f32 literal ('127.5' -> '127.5f', '1' -> '1.0f', '-0.5' -> '-0.5f'). */
export function f32Literal(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`${value} has no WGSL f32 literal`);
  const text = String(value);
  return /[.eE]/.test(text) ? `${text}f` : `${text}.0f`;
}

/** Elements in one 32-bit word of each packed type. */
const PER_WORD: Readonly<Record<PackedWireDtype, number>> = { uint8: 4, int8: 4, float16: 2 };

/**
 * WGSL that yields `f32` element k of the word `word : u32`. Integer types are decoded with
 * shifts, exact where unpack4x8unorm/snorm would divide by 255/127 (and snorm clamps -128 to -1);
 * int8 moves its byte to the top and shifts back arithmetically (i32 `>>` sign-extends, WGSL
 * §8.9 bit expressions). float16 uses unpack2x16float, an exact widening for finite halves.
 */
function decodeExpression(dtype: PackedWireDtype): string {
  switch (dtype) {
    case 'uint8':
      return 'f32((word >> (8u * k)) & 0xffu)';
    case 'int8':
      return 'f32(bitcast<i32>(word << (24u - 8u * k)) >> 24u)';
    case 'float16':
      return 'unpack2x16float(word)[k]';
  }
}

/**
 * WGSL program for tfjs-backend-webgpu: each invocation reads one 32-bit word of a packed
 * uint8, int8 or float16 payload, decodes its elements and writes (x - mean) / std for each
 * element that exists; the padding of the last word is never read into the output. With the
 * identity normalization it writes the decoded values themselves, with no arithmetic.
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
  private readonly wire: PackedWireDtype;
  private readonly normalization: Normalization;

  constructor(outputShape: number[], wire: PackedWireDtype, normalization: Normalization) {
    this.outputShape = outputShape;
    this.wire = wire;
    this.normalization = { mean: normalization.mean, std: normalization.std };
    const words = Math.ceil(outputShape.reduce((a, b) => a * b, 1) / PER_WORD[wire]);
    this.dispatchLayout = webgpu_util.flatDispatchLayout([words]);
    this.dispatch = webgpu_util.computeDispatch(this.dispatchLayout, [words], this.workgroupSize);
    this.shaderKey = `normalizePackedBytes_${wire}_${normalization.mean}_${normalization.std}`;
  }

  getUserCode(): string {
    const { mean, std } = this.normalization;
    const perWord = PER_WORD[this.wire];
    const value = isIdentity(this.normalization) ? 'x' : `(x - ${f32Literal(mean)}) / ${f32Literal(std)}`;
    return `
      fn main(index : i32) {
        let first = index * ${perWord};
        if (first < uniforms.size) {
          let word = bitcast<u32>(packed[index]);
          for (var k = 0u; k < ${perWord}u; k++) {
            let flat = first + i32(k);
            if (flat < uniforms.size) {
              let x = ${decodeExpression(this.wire)};
              setOutputAtIndex(flat, ${value});
            }
          }
        }
      }
    `;
  }
}
