import { describe, expect, it } from 'vitest';
import { kernelTable } from './kernel-profile.js';

describe('kernelTable', () => {
  it('aggregates calls by kernel name and ranks by total time', () => {
    const table = kernelTable(
      [
        { name: 'Conv2D', kernelTimeMs: 3 },
        { name: 'Relu', kernelTimeMs: 1 },
        { name: 'Conv2D', kernelTimeMs: 5 },
        { name: 'MatMul', kernelTimeMs: 2 },
      ],
      2,
      'a step',
      'test clock',
    );
    expect(table.kernelCount).toBe(4);
    expect(table.totalKernelMs).toBe(11);
    expect(table.rows).toEqual([
      { name: 'Conv2D', calls: 2, totalMs: 8, meanMs: 4, percent: (100 * 8) / 11 },
      { name: 'MatMul', calls: 1, totalMs: 2, meanMs: 2, percent: (100 * 2) / 11 },
    ]);
  });
});
