import { describe, expect, it } from 'vitest';
import { testRatio, testRunRecord } from '../../test/support/run-record.js';
import { betweenProcessSd } from '../results/calibration.js';
import type { Metric, RunRecord } from '../results/schema.js';
import { judgeAa, judgeConditions, sdUpperBound, smallestTolerance } from './calibrate.js';

// Eight processes a side of an unchanged commit: a speedup and an upload time that move a little
// between processes, and an exact byte count that is not a spread.
const RATIO = [2.0, 2.04, 1.97, 2.02, 1.99, 2.03, 1.98, 2.01];
const TIME = [3.1, 3.0, 3.2, 2.9, 3.05, 3.15, 2.95, 3.0];
const exact: Metric = { id: 'memory.bytes', scenario: 'memory', kind: 'exact', value: 8, unit: 'B' };
const time = (value: number): Metric => ({ id: 'speedup.upload-ms', scenario: 'speedup', kind: 'time', value, unit: 'ms' });
const processOf = (i: number, errors: RunRecord['errors'] = []) =>
  testRunRecord([testRatio('speedup.ratio', RATIO[i]!, [RATIO[i]!, RATIO[i]!]), time(TIME[i]!), exact], { errors });

describe("the A/A's judge phase (judgeAa), on its records alone", () => {
  // Eight a side, as few as can decide (8 + 8 at alpha 0.005): A' is A's processes in reverse order.
  const order = [0, 1, 2, 3, 4, 5, 6, 7];
  const A = order.map((i) => processOf(i));
  const A2 = order.reverse().map((i) => processOf(i));

  it("gives each ratio and time metric's spread over all processes, the tolerance its upper bound supports, and the A/A verdict", () => {
    const { spreads, errors } = judgeAa({ A, "A'": A2 }, {});
    expect(errors).toEqual([]);
    expect(spreads.map((s) => [s.id, s.kind, s.adjusted])).toEqual([
      ['speedup.ratio', 'ratio', false],
      ['speedup.upload-ms', 'time', false],
    ]);
    const ratio = spreads[0]!;
    expect(ratio.sd).toBe(betweenProcessSd([...RATIO, ...[...RATIO].reverse()]));
    expect(ratio.sdUpper).toBe(sdUpperBound(ratio.sd, 15));
    expect(ratio.tolerance).toBe(smallestTolerance(ratio.sdUpper, 'ratio'));
    expect(ratio.aa).toMatchObject({ verdict: 'pass', processes: [8, 8], tolerance: 0.1 });
  });

  it('judges the A/A at the tolerance in force, and lists every process error on one line', () => {
    const failed = processOf(7, [{ scenario: 'speedup', test: 'pairs', message: 'device lost\nstack' }]);
    const { spreads, errors } = judgeAa({ A, "A'": [...A2.slice(0, 7), failed] }, { 'speedup.ratio': 0.2 });
    expect(spreads[0]!.aa.tolerance).toBe(0.2);
    expect(errors).toEqual(['[speedup] pairs: device lost']);
  });
});

describe("the four-condition calibration's judge phase (judgeConditions), on the pools alone", () => {
  // 32 processes per condition (two looks of 8 + 8): A and A' the same spread in another order,
  // +20% work in device-normalize a speedup 1.2 times smaller; no host-state probes recorded.
  const wobble = Array.from({ length: 32 }, (_, i) => 2 * (1 + 0.01 * Math.sin(i * 1.7)));
  const pools = [wobble, [...wobble].reverse(), wobble.map((v) => v / 1.2), wobble.map((v) => v / 1.1)];
  const probes = pools.map((p) => p.map(() => Number.NaN));

  it('calls no unchanged pair regressed and every +20% pair regressed, with the slowdowns the pools hold', () => {
    const judged = judgeConditions({ perCondition: 32, pools, probes }, 200);
    expect(judged.probed).toBe(false);
    expect(judged.adjustedA).toBeNull();
    expect(judged.rows.map((r) => r.name)).toEqual(["A/A (A vs A')", 'device-normalize +20% work', 'device-normalize +10% work']);
    expect(judged.gated).toEqual(judged.rows);
    const [aa, plus20] = judged.rows;
    expect(aa!.real).toMatchObject({ decisions: 2 });
    expect(aa!.real.rates.regressed.rate).toBe(0);
    expect(plus20!.real.rates.regressed.rate).toBe(1);
    expect(plus20!.slowdown).toBeCloseTo(0.2, 10);
    expect(plus20!.resampled.decisions).toBe(200);
  });
});
