import { describe, expect, it } from 'vitest';
import { adjustForCovariate } from './covariate.js';

/** An arm whose log values are a + slope * log(covariate), exactly. */
const exact = (a: number, slope: number, covariate: number[]) => ({ values: covariate.map((x) => Math.exp(a + slope * Math.log(x))), covariate });

describe('adjustForCovariate', () => {
  it('removes a linear dependence on the log covariate, keeping the difference between the arms', () => {
    const base = exact(0, 0.5, [1, 2, 4, 8]);
    const head = exact(Math.log(0.9), 0.5, [8, 1, 2, 4]);
    const adjusted = adjustForCovariate(base, head)!;
    expect(adjusted.slope).toBeCloseTo(0.5, 12);
    expect(adjusted.explained).toBeCloseTo(1, 12);
    // Every process moved to the mean log covariate: one value per arm, 10% apart.
    for (const v of adjusted.base) expect(v).toBeCloseTo(adjusted.base[0]!, 12);
    for (const v of adjusted.head) expect(v / adjusted.base[0]!).toBeCloseTo(0.9, 12);
  });

  it('uses the within-arm slope: arms in different host states keep their true difference', () => {
    // Base measured in the fast state (covariate ~1), head in the slow state (~4), head truly 20% lower.
    const base = exact(0, 0.3, [1, 1.1, 0.9, 1.05]);
    const head = exact(Math.log(0.8), 0.3, [4, 4.4, 3.6, 4.2]);
    const raw = head.values[0]! / base.values[0]!;
    const adjusted = adjustForCovariate(base, head)!;
    // Unadjusted the head looks 0.8 * 4^0.3 = 1.21x the base; adjusted it is the true 0.8x.
    expect(raw).toBeCloseTo(0.8 * 4 ** 0.3, 10);
    expect(adjusted.head[0]! / adjusted.base[0]!).toBeCloseTo(0.8, 10);
  });

  it('leaves values it cannot adjust alone (null): too few processes, unequal lengths, a covariate that does not vary', () => {
    expect(adjustForCovariate(exact(0, 1, [1, 2, 3]), exact(0, 1, [1, 2, 3]))).toBeNull();
    expect(adjustForCovariate({ values: [1, 2, 3, 4], covariate: [1, 2, 3] }, exact(0, 1, [1, 2, 3, 4]))).toBeNull();
    expect(adjustForCovariate({ values: [1, 2, 3, 4], covariate: [2, 2, 2, 2] }, { values: [1, 2, 3, 4], covariate: [5, 5, 5, 5] })).toBeNull();
    expect(adjustForCovariate({ values: [1, 2, 3, 0], covariate: [1, 2, 3, 4] }, exact(0, 1, [1, 2, 3, 4]))).toBeNull();
  });
});
