import { webgpu_util, type WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import type { DirectProgram } from './direct-dispatch.js';
import { isIdentity, type Normalization } from '../normalization.js';
import type { PackedWireDtype } from '../wire-dtypes.js';

/** Formats a number as a WGSL f32 literal ('127.5' -> '127.5f', '1' -> '1.0f', '-0.5' -> '-0.5f'). */
export function f32Literal(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`${value} has no WGSL f32 literal`);
  const text = String(value);
  return /[.eE]/.test(text) ? `${text}f` : `${text}.0f`;
}

/** Elements in one 32-bit word of each packed type. */
export const PER_WORD: Readonly<Record<PackedWireDtype, number>> = { uint8: 4, int8: 4, float16: 2 };

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
 * What every one-word-per-invocation decode program shares: one invocation per packed 32-bit
 * word, `uniforms.size` = output elements, and with `firstWord` only the words from there on
 * (the 1-3 tail elements a vec4 program cannot store), written into an output tensor the
 * caller passes to runWebGPUProgram. Subclasses write the WGSL.
 */
export abstract class PackedWordsProgram implements WebGPUProgram {
  readonly variableNames = ['packed'];
  readonly outputShape: number[];
  readonly shaderKey: string;
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number] = [64, 1, 1];
  // Adds `uniforms.size` = number of output elements.
  readonly size = true;
  readonly uniforms?: string;

  constructor(
    outputShape: number[],
    protected readonly wire: PackedWireDtype,
    shaderKey: string,
    protected readonly firstWord = 0,
  ) {
    this.outputShape = outputShape;
    const words = Math.ceil(outputShape.reduce((a, b) => a * b, 1) / PER_WORD[wire]) - firstWord;
    if (words < 1) throw new RangeError(`firstWord ${firstWord} leaves no word to decode`);
    this.dispatchLayout = webgpu_util.flatDispatchLayout([words]);
    this.dispatch = webgpu_util.computeDispatch(this.dispatchLayout, [words], this.workgroupSize);
    this.shaderKey = shaderKey;
    if (firstWord > 0) {
      this.uniforms = 'firstWord : i32,';
      this.shaderKey += '_tail';
    }
  }

  /** Values of `uniforms` in order, for runWebGPUProgram (none unless decoding a tail). */
  uniformData(): Array<{ type: 'int32'; data: number[] }> | undefined {
    return this.firstWord > 0 ? [{ type: 'int32', data: [this.firstWord] }] : undefined;
  }

  /** The WGSL index of the word this invocation decodes. */
  protected wordIndex(): string {
    return `invocation${this.firstWord > 0 ? ' + uniforms.firstWord' : ''}`;
  }

  abstract getUserCode(): string;
}

/**
 * WGSL program for tfjs-backend-webgpu: each invocation reads one 32-bit word of a packed
 * uint8, int8 or float16 payload, decodes its elements and writes (x - mean) / std for each
 * element that exists; the padding of the last word is never read into the output. With the
 * identity normalization it writes the decoded values themselves, with no arithmetic.
 *
 * The first device program of the harness, kept as the `scalar` variant: one word per
 * invocation, one 4-byte store per element. NormalizePackedVec4Program is the fast one.
 */
export class NormalizePackedBytesProgram extends PackedWordsProgram {
  private readonly normalization: Normalization;

  constructor(outputShape: number[], wire: PackedWireDtype, normalization: Normalization, firstWord = 0) {
    super(outputShape, wire, `normalizePackedBytes_${wire}_${normalization.mean}_${normalization.std}`, firstWord);
    this.normalization = { mean: normalization.mean, std: normalization.std };
  }

  getUserCode(): string {
    const { mean, std } = this.normalization;
    const perWord = PER_WORD[this.wire];
    const value = isIdentity(this.normalization) ? 'x' : `(x - ${f32Literal(mean)}) / ${f32Literal(std)}`;
    return `
      fn main(invocation : i32) {
        let index = ${this.wordIndex()};
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

/** Packed words behind one vec4 of output: 1 for uint8 and int8 (4 bytes), 2 for float16 (4 halves). */
export const WORDS_PER_VEC4: Readonly<Record<PackedWireDtype, number>> = { uint8: 1, int8: 1, float16: 2 };

/**
 * WGSL function `decodeVec4(w : vec2<u32>) -> vec4<f32>`: 4 output elements from the words
 * holding them (w.x alone for uint8 and int8, w.x and w.y for float16), decoded as the scalar
 * program does, one lane per element.
 */
export function vec4Decoder(dtype: PackedWireDtype): string {
  switch (dtype) {
    case 'uint8':
      // Byte k of the word is element k (little-endian).
      return `
      fn decodeVec4(w : vec2<u32>) -> vec4<f32> {
        return vec4<f32>((vec4<u32>(w.x) >> vec4<u32>(0u, 8u, 16u, 24u)) & vec4<u32>(0xffu));
      }`;
    case 'int8':
      // Each byte moved to the top, then shifted back arithmetically: sign extension.
      return `
      fn decodeVec4(w : vec2<u32>) -> vec4<f32> {
        return vec4<f32>(bitcast<vec4<i32>>(vec4<u32>(w.x) << vec4<u32>(24u, 16u, 8u, 0u)) >> vec4<u32>(24u));
      }`;
    case 'float16':
      // Two halves per word, low half first.
      return `
      fn decodeVec4(w : vec2<u32>) -> vec4<f32> {
        return vec4<f32>(unpack2x16float(w.x), unpack2x16float(w.y));
      }`;
  }
}

/** Tunables of the vec4 program, chosen by measurement (scripts/compare-transfer-variants.ts). */
export interface Vec4ProgramOptions {
  /** Invocations per workgroup. */
  readonly workgroupSize?: number;
  /** vec4 outputs (4 elements each) per invocation: 4 = 16 pixels of uint8. */
  readonly vec4PerInvocation?: number;
}

export const DEFAULT_VEC4_OPTIONS: Required<Vec4ProgramOptions> = { workgroupSize: 256, vec4PerInvocation: 4 };

/**
 * The fast decode program: the output is bound as `array<vec4<f32>>` (outputComponent 4), and
 * each invocation decodes `vec4PerInvocation` groups of 4 elements (for uint8, 4 words = 16
 * pixels) and writes each with one 16-byte store; the normalization runs on vec4s with the
 * same per-element f32 subtraction and division as the scalar program, so both give the same
 * bits. Its output covers the first 4 * floor(size / 4) elements; `uniforms.size` counts
 * vec4s (tfjs divides the size by outputComponent, rounding down when it writes the int32
 * uniform), so a size that is not a multiple of 16 needs no more than the bounds check. When
 * the size is not a multiple of 4, the last 1-3 elements are left for the scalar program
 * (NormalizePackedBytesProgram with firstWord), run on the same output.
 */
export class NormalizePackedVec4Program implements WebGPUProgram {
  readonly outputShape: number[];
  readonly shaderKey: string;
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number];
  readonly outputComponent = 4;
  // The words tensor is bound twice, read-only: as i32 (`packed`) and as vec4<i32>
  // (`packed4`, 16-byte loads). A vec4 view ends at the last whole 16 bytes, so the last
  // invocation(s) read `packed` one word at a time.
  readonly variableNames = ['packed', 'packed4'];
  readonly variableComponents = [1, 4];
  readonly size = true;
  private readonly wire: PackedWireDtype;
  private readonly normalization: Normalization;
  private readonly perInvocation: number;

  constructor(outputShape: number[], wire: PackedWireDtype, normalization: Normalization, options: Vec4ProgramOptions = {}) {
    const { workgroupSize, vec4PerInvocation } = { ...DEFAULT_VEC4_OPTIONS, ...options };
    this.outputShape = outputShape;
    this.wire = wire;
    this.normalization = { mean: normalization.mean, std: normalization.std };
    this.perInvocation = vec4PerInvocation;
    this.workgroupSize = [workgroupSize, 1, 1];
    const vec4s = Math.floor(outputShape.reduce((a, b) => a * b, 1) / 4);
    if (vec4s < 1) throw new RangeError('the vec4 program needs at least 4 elements');
    const invocations = Math.ceil(vec4s / vec4PerInvocation);
    this.dispatchLayout = webgpu_util.flatDispatchLayout([invocations]);
    this.dispatch = webgpu_util.computeDispatch(this.dispatchLayout, [invocations], this.workgroupSize);
    this.shaderKey = `normalizePackedVec4_${wire}_${normalization.mean}_${normalization.std}_${vec4PerInvocation}`;
  }

  /**
   * The same user code as a complete WGSL module with the declarations tfjs would generate for
   * it (output as vec4<f32>, words as i32, `main(globalIndex)`), for DirectDispatcher; one
   * dimension of workgroups (dispatchLayout is flat). Its bound is the output's length in vec4s,
   * arrayLength(&result) = floor(size / 4) for an output buffer of exactly 4 * size bytes
   * (DirectDispatcher checks that), so no uniform is written and one pipeline serves every size.
   */
  direct(): DirectProgram {
    const [size] = this.workgroupSize;
    return {
      key: `${this.shaderKey}_wg${size}`,
      workgroups: this.dispatch[0] * this.dispatch[1] * this.dispatch[2],
      code: () => `
      @group(0) @binding(0) var<storage, read_write> result : array<vec4<f32>>;
      @group(0) @binding(1) var<storage, read> packed : array<i32>;
      @group(0) @binding(2) var<storage, read> packed4 : array<vec4<i32>>;

      fn setOutputAtIndex(flatIndex : i32, value : vec4<f32>) {
        result[flatIndex] = value;
      }
      ${this.getUserCode('i32(arrayLength(&result))')}
      @compute @workgroup_size(${size}, 1, 1)
      fn _start(@builtin(global_invocation_id) globalId : vec3<u32>) {
        main(i32(globalId.x));
      }
    `,
    };
  }

  /** `vec4Count`: WGSL for the number of vec4 outputs (tfjs's `uniforms.size`, or the direct module's own bound). */
  getUserCode(vec4Count = 'uniforms.size'): string {
    const { mean, std } = this.normalization;
    const G = this.perInvocation;
    const perVec4 = WORDS_PER_VEC4[this.wire];
    const normalize = (decoded: string): string =>
      isIdentity(this.normalization) ? decoded : `(${decoded} - vec4<f32>(${f32Literal(mean)})) / vec4<f32>(${f32Literal(std)})`;
    // The words of output vec4 g of an invocation, from its vec4 loads q0, q1, ...
    const wordOf = (k: number): string => `q${Math.floor(k / 4)}[${k % 4}]`;
    const wordsOf = (g: number): string => `vec2<u32>(${wordOf(g * perVec4)}, ${perVec4 === 2 ? wordOf(g * perVec4 + 1) : '0u'})`;
    const loads = (G * perVec4) / 4; // vec4 loads per invocation (a whole number when vec4 loads are used)
    const fast = Number.isInteger(loads)
      ? `
        if (first + ${G} <= vec4Count && (index + 1) * ${loads} <= i32(arrayLength(&packed4))) {
          ${Array.from({ length: loads }, (_, l) => `let q${l} = bitcast<vec4<u32>>(packed4[index * ${loads} + ${l}]);`).join('\n          ')}
          ${Array.from({ length: G }, (_, g) => `setOutputAtIndex(first + ${g}, ${normalize(`decodeVec4(${wordsOf(g)})`)});`).join('\n          ')}
          return;
        }`
      : '';
    // Invocation i writes vec4s i*G .. i*G+G-1, contiguous (64 bytes for G = 4).
    return `
      ${vec4Decoder(this.wire)}

      fn wordsAt(j : i32) -> vec2<u32> {
        ${perVec4 === 2 ? 'return vec2<u32>(bitcast<u32>(packed[2 * j]), bitcast<u32>(packed[2 * j + 1]));' : 'return vec2<u32>(bitcast<u32>(packed[j]), 0u);'}
      }

      fn main(index : i32) {
        let vec4Count = ${vec4Count};
        let first = index * ${G};
        ${fast}
        for (var g = 0; g < ${G}; g++) {
          let j = first + g;
          if (j < vec4Count) {
            setOutputAtIndex(j, ${normalize('decodeVec4(wordsAt(j))')});
          }
        }
      }
    `;
  }
}
