import { describe, expect, it } from 'vitest';
import { bandwidthFigure, capPlan, DEFAULT_PLAN, QUICK_PLAN, sizeId, sizeLabel } from './measurements.js';
import { figureSchema } from './schema.js';

const MiB = 1024 * 1024;

describe('doctor measurement plans and figures', () => {
  it('names sizes the way envelopes key them', () => {
    expect(sizeLabel(64 * 1024)).toBe('64 KiB');
    expect(sizeLabel(256 * MiB)).toBe('256 MiB');
    expect(sizeId('upload', 64 * 1024)).toBe('upload.64kib');
    expect(sizeId('copy', 16 * MiB)).toBe('copy.16mib');
  });

  it('covers 64 KiB..256 MiB by default, fewer with --quick, and compares the kernel with a copy of its output size', () => {
    expect(DEFAULT_PLAN.uploadSizes[0]).toBe(64 * 1024);
    expect(DEFAULT_PLAN.uploadSizes.at(-1)).toBe(256 * MiB);
    for (const plan of [DEFAULT_PLAN, QUICK_PLAN]) expect(plan.copySizes).toContain(plan.normalizePixels * 4);
    expect(QUICK_PLAN.uploadSizes.length).toBeLessThan(DEFAULT_PLAN.uploadSizes.length);
    expect(QUICK_PLAN.speedupPairs).toBeLessThan(DEFAULT_PLAN.speedupPairs);
    expect(capPlan(DEFAULT_PLAN, 64 * MiB).uploadSizes.at(-1)).toBe(64 * MiB);
  });

  it('turns repetition times into decimal GB/s: the median, and the slowest and fastest repetition', () => {
    const f = bandwidthFigure('upload.1mib', 'host->device 1 MiB', MiB, [1, 2, 4], 'writeBuffer');
    expect(f.value).toBe(MiB / 2 / 1e6);
    expect(f.spread).toEqual([MiB / 4 / 1e6, MiB / 1 / 1e6]);
    expect(f.n).toBe(3);
    expect(figureSchema.parse(f)).toEqual(f);
  });
});
