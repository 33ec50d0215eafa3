import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { bytesOfSynced } from '../../backend/synced-transfers.js';
import type { BackendContext } from '../../backend/types.js';
import { LeakCheck } from '../../measure/memory.js';
import { maxAbsDiff } from '../../measure/statistics.js';
import { useBackend } from '../../suite/session.js';
import { cropMirrorNormalizeOnHost, IMAGENET_NORMALIZATION, resolveCropMirrorNormalize, type CropMirrorNormalizeSpec } from './crop-mirror-normalize.js';
import { isChannelAffine } from '../webgpu/crop-mirror-normalize-flat-program.js';
import { CROP_MIRROR_NORMALIZE, cropMirrorNormalize, type CropMirrorNormalizeAttrs, type CropMirrorNormalizeOptions } from './crop-mirror-normalize-kernel.js';
import { fitsRowsProgram } from '../webgpu/crop-mirror-normalize-rows-program.js';
import { packBytes } from '../wire/packed-bytes.js';
import { wireByteLength } from '../wire-dtypes.js';

// The vec4 crop-mirror-normalize programs (channel-affine fast path, rows program, each with
// the first program as scalar tail) against the first program, bit for bit, and the float64
// CPU reference within MAX_ERROR, on sizes that are and are not multiples of 16 and 4.

/** Same bound as perf/11-crop-mirror-normalize.spec.ts: f32 rounding of mean/std and of the division, |y| < 4. */
const MAX_ERROR = 1e-6;

/** Means and stds for C channels: ImageNet's for 3, made-up distinct ones otherwise. */
function normalization(channels: number): { mean: number[]; std: number[] } {
  if (channels === 3) return { mean: [...IMAGENET_NORMALIZATION.mean], std: [...IMAGENET_NORMALIZATION.std] };
  return { mean: Array.from({ length: channels }, (_, c) => 100.5 + 11.25 * c), std: Array.from({ length: channels }, (_, c) => 50.3 + 7.1 * c) };
}

/** `count` bytes that run through every value 0..255, shifted so no two channels see the same sequence. */
const everyByte = (count: number): Uint8Array => Uint8Array.from({ length: count }, (_, i) => (i * 97 + 13) % 256);

const VARIANTS: ReadonlyArray<CropMirrorNormalizeOptions> = [{ program: 'vec4' }, { program: 'vec4', dispatch: 'tfjs' }, { program: 'vec4', upload: 'tfjs' }];

let context: BackendContext;
let leaks: LeakCheck;

beforeAll(async () => {
  context = await useBackend();
  leaks = new LeakCheck();
});

/** The device of a webgpu run (null on host backends). */
function device(): GPUDevice | null {
  return tf.getBackend() === 'webgpu' ? (tf.backend() as unknown as { device: GPUDevice }).device : null;
}

/**
 * Runs a variant and reads its output back. Two guards against a program that writes nothing
 * (e.g. a shader that fails validation) passing by reading a stale pooled buffer: the same
 * spec is first run on other pixels, so the buffer the pool hands back holds wrong values;
 * and the device's validation errors are collected and must be none.
 */
async function run(pixels: Uint8Array, spec: CropMirrorNormalizeSpec, options: CropMirrorNormalizeOptions): Promise<Float32Array> {
  cropMirrorNormalize(
    pixels.map((x) => 255 - x),
    spec,
    { program: 'scalar' },
  ).dispose();
  device()?.pushErrorScope('validation');
  const out = cropMirrorNormalize(pixels, spec, options);
  expect(out.shape).toEqual(resolveCropMirrorNormalize(spec).outputShape);
  await context.sync(out);
  const values = (await out.data()) as Float32Array;
  out.dispose();
  const error = await device()?.popErrorScope();
  expect(error?.message ?? null, JSON.stringify(options)).toBeNull();
  return values;
}

/** Every variant: same bits as the first program, within MAX_ERROR of the CPU reference. */
async function expectAllVariantsAgree(spec: CropMirrorNormalizeSpec, what: string): Promise<void> {
  const pixels = everyByte(resolveCropMirrorNormalize(spec).inputSize);
  const scalar = await run(pixels, spec, { program: 'scalar' });
  expect(maxAbsDiff(scalar, cropMirrorNormalizeOnHost(pixels, spec)), what).toBeLessThanOrEqual(MAX_ERROR);
  for (const options of VARIANTS) expect(await run(pixels, spec, options), `${what}, ${JSON.stringify(options)}`).toEqual(scalar);
}

const shapeLabel = (spec: CropMirrorNormalizeSpec): string => `[${spec.inputShape.join(',')}] (${resolveCropMirrorNormalize(spec).inputSize} B)`;

describe('channel-affine program (whole frame, no mirror, channels in input order)', () => {
  // Byte counts: multiples of 16, of 4 only, of neither, below 16 (first program only).
  const shapes: Array<[number[], string]> = [
    [[3, 16, 16, 3], 'multiple of 16'],
    [[2, 3, 5, 3], '90: a multiple of 2, a tail of 2'],
    [[1, 5, 7, 3], '105: a tail of 1'],
    [[2, 31, 17, 3], '3,162: several workgroups, a partial last invocation'],
    [[1, 1, 17, 1], '17 grey: one whole invocation, a tail of 1'],
    [[1, 4, 5, 1], '20 grey: a partial invocation'],
    [[2, 28, 28, 1], 'MNIST-like, multiple of 16'],
    [[1, 1, 5, 3], '15: below 16, the first program'],
    [[1, 1, 1, 3], '3: one pixel'],
    [[1, 3, 7, 2], '42: 2 channels'],
    [[2, 4, 4, 4], '128: 4 channels'],
    [[1, 3, 7, 5], '105: 5 channels (constants from a private array)'],
    [[2, 3, 5, 7, 3], 'clip THWC, 630'],
  ];
  for (const [inputShape, what] of shapes) {
    const C = inputShape.at(-1)!;
    it(`HWC ${shapeLabel({ inputShape, layout: 'HWC', ...normalization(C) })}: ${what}`, async () => {
      const spec: CropMirrorNormalizeSpec = { inputShape, layout: 'HWC', ...normalization(C) };
      expect(isChannelAffine(resolveCropMirrorNormalize(spec))).toBe(true);
      await expectAllVariantsAgree(spec, what);
    });
  }

  it('1 channel to CHW is the same order: the fast path too', async () => {
    const spec: CropMirrorNormalizeSpec = { inputShape: [3, 9, 11, 1], layout: 'CHW', mean: [127.5], std: [127.5] };
    expect(isChannelAffine(resolveCropMirrorNormalize(spec))).toBe(true);
    await expectAllVariantsAgree(spec, 'grey CHW');
  });

  it('every byte value at every position of a 16-byte group and every channel phase', async () => {
    // 256 * 17 * 3 bytes: 17 and 3 are coprime to 16, so each value meets each lane and channel.
    const spec: CropMirrorNormalizeSpec = { inputShape: [1, 17, 256, 3], layout: 'HWC', ...IMAGENET_NORMALIZATION };
    const pixels = Uint8Array.from({ length: 256 * 17 * 3 }, (_, i) => Math.floor(i / 3) % 256);
    const scalar = await run(pixels, spec, { program: 'scalar' });
    expect(await run(pixels, spec, {})).toEqual(scalar);
    expect(maxAbsDiff(scalar, cropMirrorNormalizeOnHost(pixels, spec))).toBeLessThanOrEqual(MAX_ERROR);
  });

  it('ignores the words beyond the pixels (upload buffers may be larger, padding bytes garbage)', async () => {
    for (const inputShape of [
      [1, 5, 7, 3],
      [2, 31, 17, 3],
    ]) {
      const spec: CropMirrorNormalizeSpec = { inputShape, layout: 'HWC', ...IMAGENET_NORMALIZATION };
      const pixels = everyByte(resolveCropMirrorNormalize(spec).inputSize);
      const words = new Int32Array(packBytes(pixels).words.length + 9);
      new Uint8Array(words.buffer).fill(0xab).set(pixels);
      for (const program of ['scalar', 'vec4'] as const) {
        const packed = tf.tensor1d(words, 'int32');
        const attrs: CropMirrorNormalizeAttrs = { ...spec, program };
        const out = tf.engine().runKernel(CROP_MIRROR_NORMALIZE, { pixels: packed }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
        packed.dispose();
        const values = (await out.data()) as Float32Array;
        out.dispose();
        expect(maxAbsDiff(values, cropMirrorNormalizeOnHost(pixels, spec)), `${program} [${inputShape.join(',')}]`).toBeLessThanOrEqual(MAX_ERROR);
      }
    }
  });
});

describe('rows program (crop, mirror, HWC -> CHW)', () => {
  const frames: Array<[number[], CropMirrorNormalizeSpec['crop'] | undefined, string]> = [
    [[2, 9, 23, 3], { y: 1, x: 3, height: 7, width: 17 }, 'odd crop 7x17 at (1, 3)'],
    [[1, 6, 21, 1], { y: 2, x: 1, height: 3, width: 18 }, 'grey crop 3x18 at (2, 1)'],
    [[3, 5, 19, 3], undefined, 'whole frame'],
    [[2, 2, 8, 40, 3], { y: 3, x: 5, height: 4, width: 33 }, 'clip, crop 4x33 at (3, 5)'],
    [[1, 4, 64, 3], { y: 0, x: 1, height: 4, width: 61 }, 'crop 4x61 at (0, 1): unaligned long rows'],
  ];
  for (const [inputShape, crop, what] of frames) {
    for (const layout of ['HWC', 'CHW'] as const) {
      for (const mirror of [false, true]) {
        const C = inputShape.at(-1)!;
        const spec: CropMirrorNormalizeSpec = { inputShape, ...(crop ? { crop } : {}), mirror, layout, ...normalization(C) };
        const g = resolveCropMirrorNormalize(spec);
        if (isChannelAffine(g)) continue; // covered above
        it(`${shapeLabel(spec)} ${what}, ${layout}${mirror ? ', mirrored' : ''}`, async () => {
          expect(fitsRowsProgram(g)).toBe(true);
          await expectAllVariantsAgree(spec, what);
        });
      }
    }
  }

  it('rows shorter than 16 elements take the first program', async () => {
    const spec: CropMirrorNormalizeSpec = {
      inputShape: [2, 6, 9, 3],
      crop: { y: 1, x: 2, height: 3, width: 5 },
      mirror: true,
      layout: 'CHW',
      ...IMAGENET_NORMALIZATION,
    };
    expect(fitsRowsProgram(resolveCropMirrorNormalize(spec))).toBe(false);
    await expectAllVariantsAgree(spec, 'short rows');
  });
});

describe('cropMirrorNormalize upload', () => {
  it('sends the pixels once at 1 byte each (padded to a word), counted as data, whatever the path', async () => {
    const spec: CropMirrorNormalizeSpec = { inputShape: [2, 5, 7, 3], layout: 'HWC', ...IMAGENET_NORMALIZATION };
    const pixels = everyByte(210);
    for (const upload of ['device-buffer', 'tfjs'] as const) {
      const bytes = await bytesOfSynced(context, () => cropMirrorNormalize(pixels, spec, { upload }));
      expect(bytes.dataBytes, upload).toBe(wireByteLength('uint8', pixels.length));
    }
  });

  it('back-to-back calls without a sync: each output keeps its own pixels (the upload buffer is reused only once free)', async () => {
    const spec: CropMirrorNormalizeSpec = { inputShape: [2, 16, 16, 3], layout: 'HWC', ...IMAGENET_NORMALIZATION };
    const batches = [1, 2, 3, 4, 5, 6, 7].map((k) => everyByte(1536).map((x) => (x * k + k) % 256));
    const outs = batches.map((pixels) => cropMirrorNormalize(pixels, spec));
    for (const [i, out] of outs.entries()) {
      const values = (await out.data()) as Float32Array;
      out.dispose();
      expect(maxAbsDiff(values, cropMirrorNormalizeOnHost(batches[i]!, spec)), `batch ${i}`).toBeLessThanOrEqual(MAX_ERROR);
    }
  });
});

it('leaves no tensors behind', () => {
  expect(leaks.leakedTensors()).toBe(0);
});
