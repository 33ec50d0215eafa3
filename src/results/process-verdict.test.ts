import { describe, expect, it } from 'vitest';
import { mean, studentTCdf, studentTQuantile } from '../measure/statistics.js';
import { FAMILY_FALSE_ALARM, judgeOneProcess, judgeProcesses, oneProcessAlpha, processCountProblem } from './process-verdict.js';

// Eight per-process speedups around 1.05 with a ~3% spread between processes (as measured).
const base = [1.04, 1.07, 1.02, 1.06, 1.05, 1.08, 1.03, 1.05];
const options = { tolerance: 0.1, alpha: 0.005 };

describe('judgeProcesses', () => {
  it('passes an A/A: the same distribution, an interval inside twice the tolerance', () => {
    const v = judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head: [1.05, 1.03, 1.06, 1.04, 1.07, 1.02, 1.05, 1.06] }, options);
    expect(v.verdict).toBe('pass');
    expect(v.p).toBeGreaterThan(0.05);
  });

  it('flags a 25% lower speedup as regressed, and a 25% higher one as improved', () => {
    const slower = base.map((x) => x * 0.75);
    expect(judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head: slower }, options)).toMatchObject({ verdict: 'regressed' });
    expect(judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head: base.map((x) => x * 1.25) }, options)).toMatchObject({ verdict: 'improved' });
  });

  it('at a tolerance of 50% or more (a wide allowance between CPUs) passes a fall within it and still flags a larger one', () => {
    const wide = { ...options, tolerance: 0.6 };
    const within = judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head: base.map((x) => x * 0.55) }, wide);
    expect(within.verdict).toBe('pass');
    expect(Number.isFinite(within.p)).toBe(true);
    expect(judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head: base.map((x) => x * 0.3) }, wide).verdict).toBe('regressed');
  });

  it('judges times with the opposite sign: 25% longer regresses', () => {
    const ms = [0.5, 0.52, 0.49, 0.51, 0.5, 0.53, 0.48, 0.5];
    expect(judgeProcesses({ id: 'x.time', kind: 'time', base: ms, head: ms.map((x) => x * 1.25) }, options).verdict).toBe('regressed');
  });

  it('judges a ratio where smaller is better the other way round, by permutation and by prediction (issue 40)', () => {
    const step = { id: 'training.step-time-vs-resident.cpu-normalize', kind: 'ratio' as const, direction: 'smaller' as const };
    const worse = base.map((x) => x * 3);
    const better = base.map((x) => x / 3);
    expect(judgeProcesses({ ...step, base, head: worse }, options)).toMatchObject({ verdict: 'regressed', direction: 'smaller' });
    expect(judgeProcesses({ ...step, base, head: better }, options).verdict).toBe('improved');
    expect(judgeOneProcess({ ...step, base, head: [3 * 1.05] }, options).verdict).toBe('regressed');
    expect(judgeOneProcess({ ...step, base, head: [1.05 / 3] }, options).verdict).toBe('improved');
    // The same values as a speedup (bigger is better): each verdict reversed.
    expect(judgeProcesses({ ...step, direction: 'bigger', base, head: worse }, options).verdict).toBe('improved');
    expect(judgeOneProcess({ ...step, direction: 'bigger', base, head: [1.05 / 3] }, options).verdict).toBe('regressed');
    // A time declared bigger-is-better (a rate measured as a time would not be, but the rule is the direction's).
    const ms = [0.5, 0.52, 0.49, 0.51, 0.5, 0.53, 0.48, 0.5];
    expect(judgeProcesses({ id: 'x.time', kind: 'time', direction: 'bigger', base: ms, head: ms.map((x) => x * 1.25) }, options).verdict).toBe('improved');
  });

  it('does not call a significant change within the tolerance a regression', () => {
    const v = judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head: base.map((x) => x * 0.96) }, options);
    expect(v.verdict).not.toBe('regressed');
  });

  it('is inconclusive when noisy processes cannot rule out twice the tolerance', () => {
    const noisy = [0.8, 1.3, 0.9, 1.2, 0.7, 1.4, 1.0, 0.85];
    expect(judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head: noisy }, options).verdict).toBe('inconclusive');
  });

  it('judges values adjusted for the host-state probe when given one: a head run in the slow host state is not a regression', () => {
    // Each process's ratio rises with its probe as (probe)^0.4; the head ran in the slow state (probe x3).
    const probeBase = [0.05, 0.052, 0.049, 0.051, 0.05, 0.053, 0.048, 0.05];
    const probeHead = probeBase.map((p) => 3 * p);
    const head = base.map((x) => x * 3 ** 0.4);
    const raw = judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head }, options);
    expect(raw.verdict).toBe('improved');
    const adjusted = judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head, covariate: { base: probeBase, head: probeHead } }, options);
    // Adjusted, the change is what the code did: nothing (the arms then disagree only by noise).
    expect(adjusted.verdict).not.toBe('improved');
    expect(adjusted.covariate?.slope).toBeGreaterThan(0);
    expect(adjusted.reason).toContain('adjusted for the host state');
    // Base and head still show the values as measured.
    expect(adjusted.head).toBeCloseTo(raw.head, 12);
  });

  it('gives the same verdict whether or not the interval edges are computed (the fast path calibration uses)', () => {
    const heads = [
      base.map((x) => x * 0.75),
      base.map((x) => x * 1.25),
      base.map((x) => x * 0.96),
      [0.8, 1.3, 0.9, 1.2, 0.7, 1.4, 1.0, 0.85],
      [1.05, 1.03, 1.06, 1.04, 1.07, 1.02, 1.05, 1.06],
    ];
    for (const head of heads) {
      const full = judgeProcesses({ id: 'x', kind: 'ratio', base, head }, options);
      const fast = judgeProcesses({ id: 'x', kind: 'ratio', base, head }, options, { interval: false });
      expect(fast.verdict).toBe(full.verdict);
    }
  });
});

describe('judgeOneProcess (prediction interval for one new process, on logs)', () => {
  const alpha = oneProcessAlpha(22);
  const o = { tolerance: 0.1, alpha };
  const logs = base.map(Math.log);
  const m = mean(logs);
  const sd = Math.sqrt(logs.reduce((t, x) => t + (x - m) ** 2, 0) / 7);
  // The bound: mean - t(1 - alpha; 7) * s * sqrt(1 + 1/8), on logs.
  const bound = Math.exp(m - studentTQuantile(1 - alpha, 7) * sd * Math.sqrt(1 + 1 / 8));

  it('is held to 1% over the family of judged metrics, Bonferroni', () => {
    expect(FAMILY_FALSE_ALARM).toBe(0.01);
    expect(oneProcessAlpha(22)).toBe(0.01 / 22);
    expect(oneProcessAlpha(1)).toBe(0.01);
    expect(() => oneProcessAlpha(0)).toThrow(RangeError);
  });

  it('regresses a value just below mean - t(K-1) s sqrt(1 + 1/K) that is beyond the tolerance, not one just above', () => {
    // A tolerance of 0 isolates the interval's edge.
    const at = (x: number) => judgeOneProcess({ id: 'x', kind: 'ratio', base, head: [x] }, { tolerance: 0, alpha }).verdict;
    expect(at(bound * 0.999)).toBe('regressed');
    expect(at(bound * 1.001)).toBe('inconclusive');
    const v = judgeOneProcess({ id: 'x', kind: 'ratio', base, head: [bound] }, o);
    expect(v.p).toBeCloseTo(alpha, 10);
    expect(v).toMatchObject({ method: 'prediction', processes: [8, 1], confidence: 1 - 2 * alpha });
  });

  it('a -63% ratio, the issue case, regresses; an unchanged one passes; 12% lower but within process noise is inconclusive', () => {
    const gm = Math.exp(m);
    const gross = judgeOneProcess({ id: 'x', kind: 'ratio', base, head: [gm * 0.37] }, o);
    expect(gross.verdict).toBe('regressed');
    expect(gross.change).toBeCloseTo(-0.63, 10);
    expect(gross.reason).toMatch(
      /^-63\.0% \(1 vs 8 processes; one-sided 99\.95% prediction bound -\d+\.\d% = t\(7\) \d\.\d\d x s = \d\.\d% between the 8 baseline processes x sqrt\(1 \+ 1\/8\)\), p = /,
    );
    expect(judgeOneProcess({ id: 'x', kind: 'ratio', base, head: [gm * 1.01] }, o).verdict).toBe('pass');
    const noisy = [0.7, 1.3, 0.8, 1.2, 0.9, 1.1, 1.0, 1.25];
    expect(judgeOneProcess({ id: 'x', kind: 'ratio', base: noisy, head: [0.85] }, o).verdict).toBe('inconclusive');
  });

  it('judges times the other way: longer is worse', () => {
    const ms = [0.5, 0.52, 0.49, 0.51, 0.5, 0.53, 0.48, 0.5];
    expect(judgeOneProcess({ id: 't', kind: 'time', base: ms, head: [1.0] }, o).verdict).toBe('regressed');
    expect(judgeOneProcess({ id: 't', kind: 'time', base: ms, head: [0.25] }, o).verdict).toBe('improved');
  });

  it('K processes against a one-process baseline use the same formula, the run giving s', () => {
    const one = judgeOneProcess({ id: 'x', kind: 'ratio', base: [1.05], head: base.map((x) => x * 0.5) }, o);
    // T = (mean(log head) - log 1.05) / (s * sqrt(1 + 1/8)), s the run's (the baseline's logs shifted): p = P(T_7 >= -T).
    const t = (m + Math.log(0.5) - Math.log(1.05)) / (sd * Math.sqrt(1 + 1 / 8));
    expect(one.verdict).toBe('regressed');
    expect(one.p / (1 - studentTCdf(-t, 7))).toBeCloseTo(1, 9);
    expect(one.processes).toEqual([1, 8]);
  });

  it('one against one needs the calibrated spread, and then uses s * sqrt(2) with its degrees of freedom', () => {
    expect(() => judgeOneProcess({ id: 'x', kind: 'ratio', base: [1], head: [0.5] }, o)).toThrow(/known between-process spread/);
    const spread = { sd: 0.093, df: 118, source: 'calibration' };
    const edge = Math.exp(-studentTQuantile(1 - alpha, 118) * 0.093 * Math.SQRT2);
    expect(judgeOneProcess({ id: 'x', kind: 'ratio', base: [1], head: [edge * 0.999] }, o, spread).verdict).toBe('regressed');
    expect(judgeOneProcess({ id: 'x', kind: 'ratio', base: [1], head: [edge * 1.001] }, o, spread).verdict).toBe('inconclusive');
  });

  it('refuses what it cannot judge', () => {
    expect(() => judgeOneProcess({ id: 'x', kind: 'ratio', base, head: base }, o)).toThrow(/judgeProcesses/);
    expect(() => judgeOneProcess({ id: 'x', kind: 'time', base: [1, 1, 1], head: [2] }, o)).toThrow(/SD 0/);
    expect(() => judgeOneProcess({ id: 'x', kind: 'time', base: [0, 1, 1], head: [2] }, o)).toThrow(/positive/);
  });
});

describe('processCountProblem (--processes K must be able to decide at its first look)', () => {
  it('refuses 2 to 5 per arm at alpha 0.005, saying why; allows 1 and 6 or more', () => {
    expect(processCountProblem(4)).toBe(
      '--processes 4: an exact permutation test of 4 + 4 per-process values cannot reach p < 0.005 (its smallest p is 2/70 = 0.029), so every ratio would be inconclusive and measured again; use --processes 6 or more (8 recommended), or 1 (one process judged with a prediction interval)',
    );
    expect([2, 3, 5].map((k) => processCountProblem(k) !== null)).toEqual([true, true, true]);
    expect([1, 6, 8, 16].map((k) => processCountProblem(k))).toEqual([null, null, null, null]);
  });

  it('a judgement of 4 + 4 says that no data could make it significant', () => {
    const v = judgeProcesses({ id: 'x', kind: 'ratio', base: base.slice(0, 4), head: base.slice(0, 4).map((x) => x * 0.5) }, options);
    expect(v.verdict).toBe('inconclusive');
    expect(v.reason).toContain('4 + 4 processes cannot reach p < 0.005 whatever they measure: at least 6 per arm');
  });
});
