import { util } from '@tensorflow/tfjs-core';
import { webgpu_util, type WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import type { CropMirrorNormalizeGeometry } from '../kernels/crop-mirror-normalize.js';
import { BYTES4, channelConstants, phaseOf } from './crop-mirror-normalize-wgsl.js';
import type { DirectProgram } from './direct-dispatch.js';

/** Invocations per workgroup; 256 measured fastest for the vec4 decode program (scripts/compare-transfer-variants.ts --tune). */
const WORKGROUP = 256;

/**
 * Whether a crop-mirror-normalize is a per-channel affine map over the flat array: the whole
 * frame, no mirror, and an output in input order (channels last, or a single channel, where
 * CHW and HWC are the same order). Then output element i is (byte i - mean[i % C]) / std[i % C].
 */
export function isChannelAffine(g: CropMirrorNormalizeGeometry): boolean {
  const wholeFrame = g.crop.y === 0 && g.crop.x === 0 && g.crop.height === g.inHeight && g.crop.width === g.inWidth;
  return wholeFrame && !g.mirror && (g.layout === 'HWC' || g.channels === 1);
}

/**
 * The fast path of crop-mirror-normalize (see isChannelAffine): each invocation loads 16
 * pixel bytes with one 16-byte load, and writes 16 normalized floats with four 16-byte
 * stores, as the vec4 decode program does (normalize-packed-program.ts); the channel of its
 * first element (16 * index % C) is its only integer arithmetic, and each vec4 picks its 4
 * lanes' constants by that phase. Same f32 subtraction and division as the first program
 * (crop-mirror-normalize-program.ts), so both give the same bits.
 *
 * The output is bound as vec4s: it covers the first 4 * floor(size / 4) elements
 * (`uniforms.size` counts vec4s, tfjs rounds it down); the last 1-3 elements of a size that is
 * not a multiple of 4 are left to the first program (with firstIndex) on the same output. The
 * pixel words are bound twice, read-only: as i32 (`pixels`, one word at a time for the last,
 * partial invocation) and as vec4<i32> (`pixels4`), which needs at least 16 bytes of words.
 */
export class ChannelAffineVec4Program implements WebGPUProgram {
  readonly variableNames = ['pixels', 'pixels4'];
  readonly variableComponents = [1, 4];
  readonly outputComponent = 4;
  readonly outputShape: number[];
  readonly shaderKey: string;
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number] = [WORKGROUP, 1, 1];
  // Adds `uniforms.size` = number of output vec4s.
  readonly size = true;
  private readonly channels: number;
  private readonly mean: readonly number[];
  private readonly std: readonly number[];

  constructor(geometry: CropMirrorNormalizeGeometry) {
    if (!isChannelAffine(geometry)) throw new RangeError('the channel-affine program needs the whole frame, no mirror and channels in input order');
    this.outputShape = geometry.outputShape;
    this.channels = geometry.channels;
    this.mean = geometry.mean;
    this.std = geometry.std;
    const vec4s = Math.floor(util.sizeFromShape(geometry.outputShape) / 4);
    if (vec4s < 4) throw new RangeError('the channel-affine program needs at least 16 elements');
    const invocations = Math.ceil(vec4s / 4);
    this.dispatchLayout = webgpu_util.flatDispatchLayout([invocations]);
    this.dispatch = webgpu_util.computeDispatch(this.dispatchLayout, [invocations], this.workgroupSize);
    this.shaderKey = `channelAffineVec4_${this.channels}_${this.mean.join(',')}_${this.std.join(',')}`;
  }

  /**
   * The same user code as a complete WGSL module for DirectDispatcher (output vec4<f32>, words
   * as i32 and vec4<i32>, `main(globalIndex)`), bounded by arrayLength(&result) =
   * floor(size / 4) vec4s, so it takes no uniform and one pipeline serves every size.
   */
  direct(): DirectProgram {
    return {
      key: `${this.shaderKey}_wg${WORKGROUP}`,
      workgroups: this.dispatch[0] * this.dispatch[1] * this.dispatch[2],
      code: () => `
      @group(0) @binding(0) var<storage, read_write> result : array<vec4<f32>>;
      @group(0) @binding(1) var<storage, read> pixels : array<i32>;
      @group(0) @binding(2) var<storage, read> pixels4 : array<vec4<i32>>;

      fn setOutputAtIndex(flatIndex : i32, value : vec4<f32>) {
        result[flatIndex] = value;
      }
      ${this.getUserCode('i32(arrayLength(&result))')}
      @compute @workgroup_size(${WORKGROUP}, 1, 1)
      fn _start(@builtin(global_invocation_id) globalId : vec3<u32>) {
        main(i32(globalId.x));
      }
    `,
    };
  }

  /** `vec4Count`: WGSL for the number of output vec4s (tfjs's `uniforms.size`, or the direct module's bound). */
  getUserCode(vec4Count = 'uniforms.size'): string {
    const C = this.channels;
    const normalized = (bytes: string, j: number): string => {
      const q = phaseOf('phase', j, C);
      return `(bytes4(${bytes}) - mean4(${q})) / std4(${q})`;
    };
    // Invocation i writes vec4s 4i .. 4i+3 (elements 16i .. 16i+15, 64 contiguous bytes).
    return `
      ${channelConstants(this.mean, this.std)}
      ${BYTES4}

      fn main(index : i32) {
        let vec4Count = ${vec4Count};
        let first = index * 4;
        if (first >= vec4Count) {
          return;
        }
        // Channel of element 16 * index; vec4 j starts 4j elements later.
        let phase = ${16 % C === 0 ? '0' : `(16 * index) % ${C}`};
        if (first + 4 <= vec4Count) {
          let q = bitcast<vec4<u32>>(pixels4[index]);
          ${[0, 1, 2, 3].map((j) => `setOutputAtIndex(first + ${j}, ${normalized(`q[${j}]`, j)});`).join('\n          ')}
          return;
        }
        ${[0, 1, 2, 3]
          .map((j) => `if (first + ${j} < vec4Count) { setOutputAtIndex(first + ${j}, ${normalized(`bitcast<u32>(pixels[first + ${j}])`, j)}); }`)
          .join('\n        ')}
      }
    `;
  }
}
