import { describe, expect, it } from 'vitest';
import { judgeProcesses } from './process-verdict.js';

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

  it('judges times with the opposite sign: 25% longer regresses', () => {
    const ms = [0.5, 0.52, 0.49, 0.51, 0.5, 0.53, 0.48, 0.5];
    expect(judgeProcesses({ id: 'x.time', kind: 'time', base: ms, head: ms.map((x) => x * 1.25) }, options).verdict).toBe('regressed');
  });

  it('does not call a significant change within the tolerance a regression', () => {
    const v = judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head: base.map((x) => x * 0.96) }, options);
    expect(v.verdict).not.toBe('regressed');
  });

  it('is inconclusive when noisy processes cannot rule out twice the tolerance', () => {
    const noisy = [0.8, 1.3, 0.9, 1.2, 0.7, 1.4, 1.0, 0.85];
    expect(judgeProcesses({ id: 'x.speedup', kind: 'ratio', base, head: noisy }, options).verdict).toBe('inconclusive');
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
