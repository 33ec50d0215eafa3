// The fused preprocessing kernel the image (section 7) and video (section 8) scenarios use:
// DALI-style crop-mirror-normalize from packed uint8 pixels in one device pass, checked against
// the CPU reference on odd shapes (1 and 3 channels, byte counts not a multiple of 4, batch 1).
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  countSynced,
  seededRng,
  LeakCheck,
  qualityMetric,
  recordMetrics,
  useBackend,
  maxAbsDiff,
  cropMirrorNormalizeOnHost,
  IMAGENET_NORMALIZATION,
  resolveCropMirrorNormalize,
  CROP_MIRROR_NORMALIZE,
  cropMirrorNormalize,
  cropMirrorNormalizeComposed,
  wireByteLength,
  packedBytesSent,
  itLeavesNoTensors,
  type BackendContext,
  type CropMirrorNormalizeSpec,
} from 'gpu-transfer-perf';

/**
 * Largest allowed |device - float64 CPU reference|: outputs stay within |y| < 4 here (ImageNet
 * constants give -2.12..2.64), where an f32 ULP is at most 2^-22 = 2.4e-7; WGSL allows 2.5 ULP
 * for f32 division (WGSL spec, "Floating Point Accuracy") and mean/std are rounded to f32
 * (relative 2^-24), so 1e-6 bounds it. Host kernels (cpu, wasm) run the reference itself: 0.
 */
const MAX_ERROR = 1e-6;
const GRAY = { mean: [127.5], std: [127.5] };

const CASES: ReadonlyArray<{ name: string; spec: CropMirrorNormalizeSpec }> = [
  { name: '1 channel, batch 1, 5x7 (35 B), HWC -> CHW', spec: { inputShape: [1, 5, 7, 1], layout: 'CHW', ...GRAY } },
  { name: '3 channels, batch 1, 5x7 (105 B), ImageNet mean/std, HWC -> CHW', spec: { inputShape: [1, 5, 7, 3], layout: 'CHW', ...IMAGENET_NORMALIZATION } },
  {
    name: '3 channels, batch 3, 6x9 (486 B), crop 3x5 at (1, 2), mirrored, stays HWC',
    spec: { inputShape: [3, 6, 9, 3], crop: { y: 1, x: 2, height: 3, width: 5 }, mirror: true, layout: 'HWC', ...IMAGENET_NORMALIZATION },
  },
  {
    name: 'clip: batch 1, 3 frames of 5x7x3 (315 B), crop 4x5 at (1, 1), mirrored, THWC -> TCHW',
    spec: { inputShape: [1, 3, 5, 7, 3], crop: { y: 1, x: 1, height: 4, width: 5 }, mirror: true, layout: 'CHW', ...IMAGENET_NORMALIZATION },
  },
  { name: 'clip: batch 2, 3 frames of 3x3x1 (54 B), stays THWC', spec: { inputShape: [2, 3, 3, 3, 1], layout: 'HWC', ...GRAY } },
];

/** Seeded random pixels for a spec's input. */
function pixelsFor(spec: CropMirrorNormalizeSpec, seed: number): Uint8Array {
  const rng = seededRng(seed);
  return Uint8Array.from({ length: resolveCropMirrorNormalize(spec).inputSize }, () => rng.int(256));
}

let context: BackendContext;
let leaks: LeakCheck;

beforeAll(async () => {
  context = await useBackend();
  leaks = new LeakCheck();
});

describe('fused crop-mirror-normalize kernel', () => {
  CASES.forEach(({ name, spec }, i) => {
    it(`matches the CPU reference: ${name}`, async ({ task }) => {
      const pixels = pixelsFor(spec, 100 + i);
      const reference = cropMirrorNormalizeOnHost(pixels, spec);
      const { result: out, bytes } = await countSynced(context, () => cropMirrorNormalize(pixels, spec));
      expect(out.shape).toEqual(resolveCropMirrorNormalize(spec).outputShape);
      const values = (await out.data()) as Float32Array;
      out.dispose();
      // The pixels cross once, at 1 byte each: padded to a whole 32-bit word where the words
      // cross, unpadded where only their bytes do (tensorflow: one TF_UINT8 tensor).
      expect(bytes.dataBytes).toBe(packedBytesSent('uint8', pixels.length));
      expect([pixels.length, wireByteLength('uint8', pixels.length)]).toContain(bytes.dataBytes); // nothing else: not the mean and std
      const error = maxAbsDiff(values, reference);
      expect(error).toBeLessThanOrEqual(MAX_ERROR);
      await recordMetrics(
        task,
        qualityMetric(
          `crop-mirror-normalize.max-abs-diff.case-${i + 1}`,
          error,
          { max: MAX_ERROR },
          { detail: `largest |fused kernel - float64 CPU reference|, ${name}` },
        ),
      );
    });
  });

  it('runs as a single kernel (one pass), where the composed version needs one per step', async () => {
    const { spec } = CASES[3]!;
    const pixels = pixelsFor(spec, 7);
    const fused = await tf.profile(() => cropMirrorNormalize(pixels, spec));
    (fused.result as tf.Tensor).dispose();
    expect(fused.kernelNames).toEqual([CROP_MIRROR_NORMALIZE]);
    const composed = await tf.profile(() => cropMirrorNormalizeComposed(pixels, spec));
    (composed.result as tf.Tensor).dispose();
    expect(composed.kernels.length).toBeGreaterThanOrEqual(5); // decode, slice, reverse, sub, div, transpose
  });

  it('gives the same result composed from separate tfjs ops (the unfused baseline)', async () => {
    for (const [i, { spec }] of CASES.entries()) {
      const pixels = pixelsFor(spec, 100 + i);
      const out = cropMirrorNormalizeComposed(pixels, spec);
      expect(out.shape).toEqual(resolveCropMirrorNormalize(spec).outputShape);
      const values = (await out.data()) as Float32Array;
      out.dispose();
      expect(maxAbsDiff(values, cropMirrorNormalizeOnHost(pixels, spec))).toBeLessThanOrEqual(MAX_ERROR);
    }
  });

  itLeavesNoTensors(() => leaks);
});
