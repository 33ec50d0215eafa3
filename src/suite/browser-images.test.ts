import { describe, expect, it } from 'vitest';
import { HOST_ROUNDINGS, NORMALIZE_ROUNDINGS, normalizeAgreementBound } from '../measure/float-bounds.js';
import { IMAGENET_NORMALIZATION } from '../transfer/normalization.js';
import { imageAgreementBound, levelDiff, rgbaToRgb, translucentPixels, webglImageTensorBytes } from './browser-images.js';

// The page-side image helpers that need no DOM (the rest runs in perf/browser/07-coco.perf.ts).
describe('browser image helpers', () => {
  it('drops alpha from RGBA as the COCO reader does, and refuses partial pixels', () => {
    expect([...rgbaToRgb([1, 2, 3, 255, 4, 5, 6, 0])]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(() => rgbaToRgb([1, 2, 3])).toThrow(/not whole RGBA pixels/);
    expect(() => rgbaToRgb([1, 2, 3, 4], new Uint8Array(2))).toThrow(/into has 2 values, 3 needed/);
  });

  it('counts translucent pixels and the levels two byte images differ by', () => {
    expect(translucentPixels([0, 0, 0, 255, 0, 0, 0, 254, 9, 9, 9, 0])).toBe(2);
    expect(levelDiff([0, 10, 255], [0, 8, 250])).toEqual({ max: 5, differing: 2 });
    expect(levelDiff([1, 2], [1, 2])).toEqual({ max: 0, differing: 0 });
    expect(() => levelDiff([1], [1, 2])).toThrow(/1 values against 2/);
  });

  it("gives WebGL's 16 B a pixel for an [h,w,3] tensor, half a texel pair rounded up", () => {
    // The 12 fixture images' sizes: 639,392 B measured in Chromium 156 (webgl, SwiftShader).
    const sizes = [
      [48, 64],
      [60, 80],
      [64, 48],
      [40, 50],
      [72, 96],
      [40, 40],
      [56, 72],
      [30, 100],
      [32, 32],
      [80, 60],
      [50, 50],
      [45, 70],
    ] as const;
    expect(sizes.reduce((a, [h, w]) => a + webglImageTensorBytes(h, w), 0)).toBe(639_392);
    expect(webglImageTensorBytes(3, 3)).toBe(5 * 2 * 16);
  });

  it('bounds host-vs-device agreement with one host rounding, device-vs-device with the device roundings on both sides', () => {
    expect(imageAgreementBound(IMAGENET_NORMALIZATION, 'cpu-normalize', 'gpu-import')).toBe(
      normalizeAgreementBound(IMAGENET_NORMALIZATION, HOST_ROUNDINGS, NORMALIZE_ROUNDINGS),
    );
    expect(imageAgreementBound(IMAGENET_NORMALIZATION, 'device-normalize', 'gpu-import')).toBe(
      normalizeAgreementBound(IMAGENET_NORMALIZATION, NORMALIZE_ROUNDINGS, NORMALIZE_ROUNDINGS),
    );
  });
});
