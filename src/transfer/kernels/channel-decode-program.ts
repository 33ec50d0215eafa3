import type * as tf from '@tensorflow/tfjs';
import { webgpu_util, type WebGPUBackend, type WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import { resolveCropMirrorNormalize, type CropMirrorNormalizeGeometry } from './crop-mirror-normalize.js';
import type { ChannelNormalization } from '../normalization.js';
import { ChannelAffineVec4Program } from '../webgpu/crop-mirror-normalize-flat-program.js';
import { channelConstants, phaseOf } from '../webgpu/crop-mirror-normalize-wgsl.js';
import { DirectDispatcher } from '../webgpu/direct-dispatch.js';
import { PackedWordsProgram, PER_WORD, vec4Decoder, WORDS_PER_VEC4 } from '../webgpu/normalize-packed-program.js';
import type { PackedWireDtype } from '../wire-dtypes.js';

/**
 * The per-channel decode programs of NormalizePackedBytes on webgpu: packed uint8, int8 or
 * float16 words -> (x - mean[c]) / std[c] as float32, c = element index % C (channels last).
 * The scalar-normalization programs (normalize-packed-program.ts) compile one mean/std pair in;
 * these pick each element's constants by its channel with the WGSL helpers the
 * crop-mirror-normalize programs use (crop-mirror-normalize-wgsl.ts), so every program
 * subtracts and divides by f32 literals of the same doubles, in the same f32 operations.
 * (uint8 over a whole vec4-able output goes to the crop-mirror-normalize channel-affine program
 * instead, which is this computation for uint8, with direct dispatch.)
 */

const key = (wire: PackedWireDtype, n: ChannelNormalization) => `${wire}_${n.mean.join(',')}_${n.std.join(',')}`;

/**
 * One word per invocation, one 4-byte store per element that exists (the padding of the last
 * word is never written). With `firstWord` it decodes only the words from there on: the 1-3
 * elements the vec4 program leaves, into the output the caller passes to runWebGPUProgram.
 */
export class ChannelDecodeProgram extends PackedWordsProgram {
  constructor(
    outputShape: number[],
    wire: PackedWireDtype,
    private readonly n: ChannelNormalization,
    firstWord = 0,
  ) {
    super(outputShape, wire, `channelDecode_${key(wire, n)}`, firstWord);
  }

  getUserCode(): string {
    const perWord = PER_WORD[this.wire];
    const C = this.n.mean.length;
    return `
      ${channelConstants(this.n.mean, this.n.std)}
      ${vec4Decoder(this.wire)}

      fn main(invocation : i32) {
        let index = ${this.wordIndex()};
        let first = index * ${perWord};
        if (first < uniforms.size) {
          let word = bitcast<u32>(packed[index]);
          // Lanes 0..3 (uint8, int8) or 0..1 (float16: the word's two halves) are its elements.
          let decoded = decodeVec4(vec2<u32>(word, 0u));
          for (var k = 0; k < ${perWord}; k++) {
            let flat = first + k;
            if (flat < uniforms.size) {
              let c = flat % ${C};
              setOutputAtIndex(flat, (decoded[k] - meanOf(c)) / stdOf(c));
            }
          }
        }
      }
    `;
  }
}

/**
 * The fast per-channel decode: output bound as vec4s (outputComponent 4), 16 elements per
 * invocation written with four 16-byte stores from one (uint8, int8) or two (float16) 16-byte
 * loads of words; each vec4's lanes take their channels' constants by the phase of its first
 * element, (16 * index + 4j) % C, as the channel-affine crop-mirror-normalize program does. It
 * covers the first 4 * floor(size / 4) elements (`uniforms.size` counts vec4s); the last 1-3
 * are left to ChannelDecodeProgram with firstWord, on the same output.
 */
export class ChannelDecodeVec4Program implements WebGPUProgram {
  readonly variableNames = ['packed', 'packed4'];
  readonly variableComponents = [1, 4];
  readonly outputComponent = 4;
  readonly outputShape: number[];
  readonly shaderKey: string;
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number] = [256, 1, 1];
  readonly size = true;

  constructor(
    outputShape: number[],
    private readonly wire: PackedWireDtype,
    private readonly n: ChannelNormalization,
  ) {
    this.outputShape = outputShape;
    const vec4s = Math.floor(outputShape.reduce((a, b) => a * b, 1) / 4);
    if (vec4s < 1) throw new RangeError('the vec4 program needs at least 4 elements');
    const invocations = Math.ceil(vec4s / 4);
    this.dispatchLayout = webgpu_util.flatDispatchLayout([invocations]);
    this.dispatch = webgpu_util.computeDispatch(this.dispatchLayout, [invocations], this.workgroupSize);
    this.shaderKey = `channelDecodeVec4_${key(wire, n)}`;
  }

  getUserCode(): string {
    const C = this.n.mean.length;
    const perVec4 = WORDS_PER_VEC4[this.wire];
    const loads = perVec4; // 16-byte loads per invocation: 4 vec4s of 1 or 2 words each
    const normalized = (words: string, j: number): string => {
      const q = phaseOf('phase', j, C);
      return `(decodeVec4(${words}) - mean4(${q})) / std4(${q})`;
    };
    // Words of vec4 j of an invocation from its loads q0, q1: word k is q[k / 4][k % 4].
    const wordOf = (k: number): string => `q${Math.floor(k / 4)}[${k % 4}]`;
    const loaded = (j: number): string => `vec2<u32>(${wordOf(j * perVec4)}, ${perVec4 === 2 ? wordOf(j * perVec4 + 1) : '0u'})`;
    const fromWords = (j: string): string =>
      perVec4 === 2 ? `vec2<u32>(bitcast<u32>(packed[2 * (${j})]), bitcast<u32>(packed[2 * (${j}) + 1]))` : `vec2<u32>(bitcast<u32>(packed[${j}]), 0u)`;
    return `
      ${channelConstants(this.n.mean, this.n.std)}
      ${vec4Decoder(this.wire)}

      fn main(index : i32) {
        let vec4Count = uniforms.size;
        let first = index * 4;
        if (first >= vec4Count) {
          return;
        }
        // Channel of element 16 * index; vec4 j starts 4j elements later.
        let phase = ${16 % C === 0 ? '0' : `(16 * index) % ${C}`};
        if (first + 4 <= vec4Count && (index + 1) * ${loads} <= i32(arrayLength(&packed4))) {
          ${Array.from({ length: loads }, (_, l) => `let q${l} = bitcast<vec4<u32>>(packed4[index * ${loads} + ${l}]);`).join('\n          ')}
          ${[0, 1, 2, 3].map((j) => `setOutputAtIndex(first + ${j}, ${normalized(loaded(j), j)});`).join('\n          ')}
          return;
        }
        ${[0, 1, 2, 3].map((j) => `if (first + ${j} < vec4Count) { setOutputAtIndex(first + ${j}, ${normalized(fromWords(`first + ${j}`), j)}); }`).join('\n        ')}
      }
    `;
  }
}

/**
 * Runs the crop-mirror-normalize channel-affine program (whole frame, no mirror, channels in
 * input order: (byte i - mean[i % C]) / std[i % C]), dispatched directly into tfjs's encoder
 * where it can be (`direct`), else by runWebGPUProgram.
 */
export function runChannelAffine(backend: WebGPUBackend, pixels: tf.TensorInfo, g: CropMirrorNormalizeGeometry, direct: boolean): tf.TensorInfo {
  const program = new ChannelAffineVec4Program(g);
  const directProgram = direct ? program.direct() : null;
  const dispatcher = DirectDispatcher.of(backend);
  return directProgram && dispatcher.canRun(directProgram.workgroups)
    ? dispatcher.run(directProgram, pixels, g.outputShape)
    : backend.runWebGPUProgram(program, [pixels, pixels], 'float32');
}

/**
 * The channel-affine geometry of uint8 elements of any channels-last `shape` (its last axis the
 * channels): viewed as one frame of one row of pixels, whose output takes `shape` itself.
 */
export function channelAffineGeometry(shape: number[], n: ChannelNormalization): CropMirrorNormalizeGeometry {
  const channels = n.mean.length;
  const pixels = shape.reduce((a, b) => a * b, 1) / channels;
  const g = resolveCropMirrorNormalize({ inputShape: [1, 1, pixels, channels], mean: n.mean, std: n.std, layout: 'HWC' });
  return { ...g, outputShape: [...shape] };
}
