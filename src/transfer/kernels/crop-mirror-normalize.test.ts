import { describe, expect, it } from 'vitest';
import { cropMirrorNormalizeOnHost, IMAGENET_NORMALIZATION, resolveCropMirrorNormalize } from './crop-mirror-normalize.js';

// One 2x3 RGB frame; pixel (y, x) channel c holds 100*y + 10*x + c, so every value says where it came from.
const frame = Uint8Array.from({ length: 2 * 3 * 3 }, (_, i) => {
  const c = i % 3;
  const x = Math.floor(i / 3) % 3;
  const y = Math.floor(i / 9);
  return 100 * y + 10 * x + c;
});
const identity3 = { mean: [0, 0, 0], std: [1, 1, 1] };

describe('cropMirrorNormalizeOnHost', () => {
  it('moves channels first: HWC -> CHW', () => {
    const out = cropMirrorNormalizeOnHost(frame, { inputShape: [1, 2, 3, 3], layout: 'CHW', ...identity3 });
    expect([...out]).toEqual([0, 10, 20, 100, 110, 120, 1, 11, 21, 101, 111, 121, 2, 12, 22, 102, 112, 122]);
  });

  it('crops, then mirrors left-right, keeping HWC', () => {
    const out = cropMirrorNormalizeOnHost(frame, {
      inputShape: [1, 2, 3, 3],
      crop: { y: 1, x: 1, height: 1, width: 2 },
      mirror: true,
      layout: 'HWC',
      ...identity3,
    });
    expect([...out]).toEqual([120, 121, 122, 110, 111, 112]);
  });

  it('normalizes each channel with its own mean and std', () => {
    const out = cropMirrorNormalizeOnHost(frame, { inputShape: [1, 2, 3, 3], layout: 'HWC', mean: [0, 1, 2], std: [1, 2, 4] });
    // Channel c of pixel (y, x) is 100y + 10x + c -> (100y + 10x) / std[c].
    expect([...out.slice(0, 6)]).toEqual([0, 0, 0, 10, 5, 2.5]);
  });

  it('treats a clip as frames: THWC -> TCHW keeps time first', () => {
    // 2 frames of one 1x2 gray row: frame t pixel x = 10t + x.
    const clip = Uint8Array.from([0, 1, 10, 11]);
    const spec = { inputShape: [1, 2, 1, 2, 1], layout: 'CHW', mirror: true, mean: [0], std: [1] } as const;
    expect(resolveCropMirrorNormalize(spec).outputShape).toEqual([1, 2, 1, 1, 2]);
    expect([...cropMirrorNormalizeOnHost(clip, spec)]).toEqual([1, 0, 11, 10]);
  });

  it('rounds (x - mean) / std once from float64, with ImageNet constants scaled to 0..255', () => {
    expect(IMAGENET_NORMALIZATION.mean[0]).toBeCloseTo(123.675, 10);
    expect(IMAGENET_NORMALIZATION.std[2]).toBeCloseTo(57.375, 10);
    const px = Uint8Array.from([255, 0, 128]);
    const out = cropMirrorNormalizeOnHost(px, { inputShape: [1, 1, 1, 3], layout: 'CHW', ...IMAGENET_NORMALIZATION });
    expect([...out]).toEqual([
      Math.fround((255 - 0.485 * 255) / (0.229 * 255)),
      Math.fround((0 - 0.456 * 255) / (0.224 * 255)),
      Math.fround((128 - 0.406 * 255) / (0.225 * 255)),
    ]);
  });
});

describe('resolveCropMirrorNormalize', () => {
  it('gives output shapes for both layouts and ranks', () => {
    const base = { mean: [0, 0, 0], std: [1, 1, 1] };
    expect(
      resolveCropMirrorNormalize({ inputShape: [16, 480, 640, 3], crop: { y: 0, x: 80, height: 224, width: 224 }, layout: 'CHW', ...base }).outputShape,
    ).toEqual([16, 3, 224, 224]);
    expect(resolveCropMirrorNormalize({ inputShape: [8, 32, 112, 112, 3], layout: 'CHW', ...base }).outputShape).toEqual([8, 32, 3, 112, 112]);
    expect(resolveCropMirrorNormalize({ inputShape: [8, 32, 112, 112, 3], layout: 'HWC', ...base })).toMatchObject({
      frames: 256,
      outputShape: [8, 32, 112, 112, 3],
    });
  });

  it('refuses crops outside the frame, wrong channel counts, zero std and bad ranks', () => {
    const base = { inputShape: [1, 4, 4, 3], layout: 'HWC', mean: [0, 0, 0], std: [1, 1, 1] } as const;
    expect(() => resolveCropMirrorNormalize({ ...base, crop: { y: 2, x: 0, height: 3, width: 4 } })).toThrow(/not inside/);
    expect(() => resolveCropMirrorNormalize({ ...base, crop: { y: 0, x: -1, height: 1, width: 1 } })).toThrow(/not inside/);
    expect(() => resolveCropMirrorNormalize({ ...base, mean: [0] })).toThrow(/3 channels/);
    expect(() => resolveCropMirrorNormalize({ ...base, std: [1, 0, 1] })).toThrow(/std must not be 0/);
    expect(() => resolveCropMirrorNormalize({ ...base, inputShape: [4, 4, 3] })).toThrow(/inputShape/);
    expect(() => cropMirrorNormalizeOnHost(new Uint8Array(5), base)).toThrow(/48/);
  });
});
