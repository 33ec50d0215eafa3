import { describe, expect, it } from 'vitest';
import { seededRng } from '../base/random.js';
import {
  bootstrapCI,
  geometricMean,
  mean,
  median,
  quantileSorted,
  sortSamples,
  binomialCdf,
  binomialLowerThreshold,
  incompleteBeta,
  logGamma,
  studentTCdf,
  studentTQuantile,
} from './statistics.js';

/** Standard normal by Box-Muller from a seeded uniform source. */
function normal(rng: ReturnType<typeof seededRng>): number {
  const u = 1 - rng.float();
  const v = rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

describe('order statistics', () => {
  it('matches R type-7 quantiles', () => {
    const s = sortSamples([3, 1, 4, 1, 5, 9, 2, 6]);
    // R: quantile(c(3,1,4,1,5,9,2,6), c(0, .25, .5, .9, 1)) -> 1 1.75 3.5 6.9 9
    expect(quantileSorted(s, 0)).toBe(1);
    expect(quantileSorted(s, 0.25)).toBeCloseTo(1.75, 12);
    expect(quantileSorted(s, 0.5)).toBeCloseTo(3.5, 12);
    expect(quantileSorted(s, 0.9)).toBeCloseTo(6.9, 12);
    expect(quantileSorted(s, 1)).toBe(9);
    expect(median([5])).toBe(5);
  });

  it('rejects empty input and bad quantiles', () => {
    expect(() => median([])).toThrow(RangeError);
    expect(() => quantileSorted(sortSamples([1]), 1.5)).toThrow(RangeError);
  });

  it('sums without losing small terms', () => {
    expect(mean([1e16, 1, -1e16, 1])).toBe(0.5);
  });
});

describe('bootstrap CI of the median', () => {
  it('is reproducible for a seed', () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const a = bootstrapCI(xs, median, { rng: seededRng(7), resamples: 500 });
    const b = bootstrapCI(xs, median, { rng: seededRng(7), resamples: 500 });
    expect(a).toEqual(b);
    expect(a.lo).toBeLessThanOrEqual(a.estimate);
    expect(a.hi).toBeGreaterThanOrEqual(a.estimate);
  });

  it('covers the true median of lognormal samples about 95% of the time', () => {
    // Lognormal(0, 0.5) has median exp(0) = 1; n = 40 like a perf run's pairs.
    const rng = seededRng(2026);
    const trials = 400;
    let covered = 0;
    for (let t = 0; t < trials; t++) {
      const xs = Array.from({ length: 40 }, () => Math.exp(0.5 * normal(rng)));
      const ci = bootstrapCI(xs, median, { rng, resamples: 1000 });
      if (ci.lo <= 1 && 1 <= ci.hi) covered++;
    }
    // Binomial sd at p=0.95, n=400 is 1.1%; the percentile bootstrap of a median runs a bit
    // conservative at n=40 (discrete order statistics), so accept [0.91, 0.99].
    expect(covered / trials).toBeGreaterThanOrEqual(0.91);
    expect(covered / trials).toBeLessThanOrEqual(0.99);
  });
});

describe('binomial tail', () => {
  it('matches hand-computed values', () => {
    // n = 4, p = 0.5: P(X <= 1) = (1 + 4) / 16.
    expect(binomialCdf(1, 4, 0.5)).toBeCloseTo(5 / 16, 14);
    // n = 10, p = 0.3: P(X <= 2) = 0.3827827864 (scipy.stats.binom.cdf(2, 10, 0.3)).
    expect(binomialCdf(2, 10, 0.3)).toBeCloseTo(0.3827827864, 9);
    expect(binomialCdf(-1, 10, 0.3)).toBe(0);
    expect(binomialCdf(10, 10, 0.3)).toBe(1);
  });

  it('is exact for large n', () => {
    // Summed in exact rational arithmetic (Python fractions): 0.46573355118789755.
    expect(binomialCdf(1939, 2000, 0.97)).toBeCloseTo(0.465733551187898, 12);
  });

  it('gives the fewest successes a one-sided 5% test accepts', () => {
    const k = binomialLowerThreshold(2000, 0.97);
    expect(binomialCdf(k, 2000, 0.97)).toBeGreaterThanOrEqual(0.05);
    expect(binomialCdf(k - 1, 2000, 0.97)).toBeLessThan(0.05);
    // The same search in exact rational arithmetic (Python fractions) gives 1927.
    expect(k).toBe(1927);
  });
});

describe("Student's t", () => {
  it('logGamma matches factorials and Gamma(1/2) = sqrt(pi)', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(11)).toBeCloseTo(Math.log(3_628_800), 11);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(() => logGamma(0)).toThrow(RangeError);
  });

  it('incompleteBeta matches closed forms: I_x(1, 1) = x, I_x(a, 1) = x^a, I_x(1, b) = 1 - (1 - x)^b', () => {
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 13);
    expect(incompleteBeta(0.7, 3, 1)).toBeCloseTo(0.343, 13);
    expect(incompleteBeta(0.2, 1, 4)).toBeCloseTo(1 - 0.8 ** 4, 13);
    expect(incompleteBeta(0, 2, 3)).toBe(0);
    expect(incompleteBeta(1, 2, 3)).toBe(1);
  });

  it('the CDF matches closed forms: df 1 is Cauchy, df 2 is t / (2 sqrt(2 + t^2)) + 1/2', () => {
    for (const t of [-3, -0.5, 0, 0.7, 12]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 13);
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 13);
    }
  });

  it('quantiles match the tables (R qt) to 1e-7', () => {
    // R: qt(c(.975, .975, .995, .9995, .999, .05), c(1, 10, 7, 7, 5, 3))
    const cases: [number, number, number][] = [
      [0.975, 1, 12.7062047],
      [0.975, 10, 2.2281389],
      [0.995, 7, 3.4994833],
      [0.9995, 7, 5.4078825],
      [0.999, 5, 5.8934295],
      [0.05, 3, -2.3533634],
    ];
    for (const [p, df, q] of cases) expect(studentTQuantile(p, df)).toBeCloseTo(q, 6);
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(1.959964, 5);
    expect(studentTQuantile(0.5, 4)).toBe(0);
    expect(() => studentTQuantile(1, 4)).toThrow(RangeError);
  });

  it('quantile and CDF invert each other far in the tail', () => {
    for (const df of [5, 7, 118]) {
      const p = 1 - 0.01 / 22;
      expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 12);
    }
  });
});

describe('geometricMean', () => {
  it('is the centre of ratios: 2 and 8 give 4, a ratio and its inverse give 1', () => {
    expect(geometricMean([2, 8])).toBeCloseTo(4, 14);
    expect(geometricMean([0.8, 1.25])).toBeCloseTo(1, 14);
    expect(geometricMean([3])).toBeCloseTo(3, 14);
  });
});
