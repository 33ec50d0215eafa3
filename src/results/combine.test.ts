import { describe, expect, it } from 'vitest';
import { combineProcessRecords, extendProcesses } from './combine.js';
import { testDiagnostics as diagnostics, testRunRecord } from '../../test/support/run-record.js';
import { runRecordSchema, type Metric, type RunRecord } from './schema.js';

const ratio = (value: number, extra: Partial<Metric> = {}): Metric => ({
  id: 'speedup.ratio',
  scenario: 'speedup',
  kind: 'ratio',
  value,
  unit: 'x',
  ci: [value * 0.9, value * 1.1],
  samples: { a: [2, 2], b: [1, 1] },
  detail: 'paired',
  ...extra,
});
const time = (value: number): Metric => ({ id: 'speedup.time', scenario: 'speedup', kind: 'time', value, unit: 'ms', ci: [value, value + 0.1] });
const exact = (value: number): Metric => ({ id: 'speedup.bytes', scenario: 'speedup', kind: 'exact', value, unit: 'B' });
const quality = (value: number, bound: Metric['bound']): Metric => ({
  id: 'train.loss',
  scenario: 'train',
  kind: 'quality',
  value,
  unit: '',
  bound,
  detail: 'loss',
});
const records = (...metrics: Metric[][]): RunRecord[] => metrics.map((m) => testRunRecord(m));
const metric = (record: RunRecord, id: string) => record.metrics.find((m) => m.id === id);
const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

describe('combineProcessRecords', () => {
  it('needs a record and returns a single one unchanged (no per-process values)', () => {
    expect(() => combineProcessRecords([])).toThrow(RangeError);
    const one = testRunRecord([ratio(1.5)]);
    expect(combineProcessRecords([one])).toBe(one);
  });

  it('keeps one value per process for a ratio, their geometric mean as the value and a CI across processes, without the paired samples', () => {
    const combined = combineProcessRecords(records([ratio(1)], [ratio(2)], [ratio(4)]));
    const m = metric(combined, 'speedup.ratio')!;
    expect(m.processes).toEqual([1, 2, 4]);
    expect(m.value).toBeCloseTo(2, 12);
    expect(m.samples).toBeUndefined();
    // The bootstrap of the mean log across the three processes: its bounds are process geometric means.
    expect(m.ci![0]).toBeGreaterThanOrEqual(1 - 1e-12);
    expect(m.ci![1]).toBeLessThanOrEqual(4 + 1e-12);
    expect(m.ci![0]).toBeLessThan(2);
    expect(m.ci![1]).toBeGreaterThan(2);
    expect(m.ci).not.toEqual([0.9, 1.1]);
    expect(m.detail).toBe('paired [geometric mean over 3 processes, one value each; 95% bootstrap CI across processes]');
    // Readers accept what the combination writes.
    expect(() => runRecordSchema.parse(combined)).not.toThrow();
  });

  it('gives the same CI for the same per-process values (seeded bootstrap)', () => {
    const a = combineProcessRecords(records([ratio(1.1)], [ratio(1.3)], [ratio(1.2)]));
    const b = combineProcessRecords(records([ratio(1.1)], [ratio(1.3)], [ratio(1.2)]));
    expect(metric(a, 'speedup.ratio')!.ci).toEqual(metric(b, 'speedup.ratio')!.ci);
  });

  it('drops the first process in-process CI when two processes are too few for a CI across them', () => {
    const combined = combineProcessRecords(records([ratio(1)], [ratio(4)]));
    const m = metric(combined, 'speedup.ratio')!;
    expect(m.value).toBeCloseTo(2, 12);
    expect(m.processes).toEqual([1, 4]);
    expect(m.ci).toBeUndefined();
    expect(() => runRecordSchema.parse(combined)).not.toThrow();
  });

  it('takes the median of times when a process measured a true 0 ms (no geometric mean, no CI)', () => {
    const combined = combineProcessRecords(records([time(0)], [time(0.2)], [time(0.1)]));
    const m = metric(combined, 'speedup.time')!;
    expect(m.value).toBe(0.1);
    expect(m.processes).toEqual([0, 0.2, 0.1]);
    expect(m.ci).toBeUndefined();
    expect(() => runRecordSchema.parse(combined)).not.toThrow();
  });

  it('keeps an exact metric that agrees, and files one that differs between processes as an error (first value kept)', () => {
    const same = combineProcessRecords(records([exact(8)], [exact(8)]));
    expect(same.metrics).toEqual([exact(8)]);
    expect(same.errors).toEqual([]);
    const differ = combineProcessRecords(records([exact(8)], [exact(8)], [exact(9)]));
    expect(differ.metrics).toEqual([exact(8)]);
    expect(differ.errors).toEqual([
      { scenario: 'speedup', test: '(combining processes)', message: 'exact metric speedup.bytes differs between processes: 8, 8, 9' },
    ]);
  });

  it('keeps the worst quality value: the lowest against a lower bound only, else the highest', () => {
    const atLeast = combineProcessRecords(records([quality(0.9, { min: 0.5 })], [quality(0.7, { min: 0.5 })], [quality(0.8, { min: 0.5 })]));
    expect(metric(atLeast, 'train.loss')).toMatchObject({ value: 0.7, detail: 'loss [worst of 3 processes]' });
    const atMost = combineProcessRecords(records([quality(0.1, { max: 1 })], [quality(0.3, { max: 1 })]));
    expect(metric(atMost, 'train.loss')).toMatchObject({ value: 0.3, detail: 'loss [worst of 2 processes]' });
    const both = combineProcessRecords(records([quality(0.1, { min: 0, max: 1 })], [quality(0.3, { min: 0, max: 1 })]));
    expect(metric(both, 'train.loss')!.value).toBe(0.3);
    expect(metric(both, 'train.loss')!.processes).toBeUndefined();
  });

  it('files a metric missing from some process as an error and leaves it out', () => {
    const combined = combineProcessRecords(records([ratio(1), exact(8)], [exact(8)]));
    expect(combined.metrics.map((m) => m.id)).toEqual(['speedup.bytes']);
    expect(combined.errors).toEqual([{ scenario: 'speedup', test: '(combining processes)', message: 'metric speedup.ratio is missing from some processes' }]);
  });

  it('keeps every process errors, each named by its process, and every process diagnostics in order', () => {
    const a = testRunRecord([exact(8)], { errors: [{ scenario: 'speedup', test: 'times', message: 'boom' }], diagnostics: [diagnostics(1)] });
    const b = testRunRecord([exact(8)], { diagnostics: [diagnostics(2)] });
    const c = testRunRecord([exact(8)], { errors: [{ scenario: 'memory', test: 'counts', message: 'lost' }], diagnostics: [diagnostics(3)] });
    const combined = combineProcessRecords([a, b, c]);
    expect(combined.errors).toEqual([
      { scenario: 'speedup', test: 'times (process 1)', message: 'boom' },
      { scenario: 'memory', test: 'counts (process 3)', message: 'lost' },
    ]);
    expect(combined.diagnostics!.map((d) => d.involuntaryContextSwitches)).toEqual([1, 2, 3]);
    expect(combined.profile).toBe(a.profile);
  });
});

describe('extendProcesses', () => {
  const first = combineProcessRecords(records([ratio(1), exact(8)], [ratio(2), exact(8)], [ratio(4), exact(8)]));

  it('appends the second look processes to a per-process metric and recomputes value and CI over all', () => {
    const more = combineProcessRecords(records([ratio(2)], [ratio(2)], [ratio(2)]));
    const extended = extendProcesses(first, more);
    const m = metric(extended, 'speedup.ratio')!;
    expect(m.processes).toEqual([1, 2, 4, 2, 2, 2]);
    expect(m.value).toBeCloseTo(geomean([1, 2, 4, 2, 2, 2]), 12);
    expect(m.ci).not.toEqual(metric(first, 'speedup.ratio')!.ci);
    expect(m.ci![0]).toBeLessThanOrEqual(m.value);
    expect(m.ci![1]).toBeGreaterThanOrEqual(m.value);
    expect(m.detail).toBe('paired [geometric mean over 6 processes (two looks), one value each; 95% bootstrap CI across processes]');
    expect(() => runRecordSchema.parse(extended)).not.toThrow();
  });

  it("keeps the first look's skipped scenarios (runner/perf.ts writes the extended record as it is)", () => {
    const skipped = [{ scenario: 'kinetics', reason: 'ffmpeg not found' }];
    expect(extendProcesses({ ...first, skipped }, testRunRecord([ratio(8)])).skipped).toEqual(skipped);
  });

  it('takes a one-process second look by its value', () => {
    const extended = extendProcesses(first, testRunRecord([ratio(8)]));
    expect(metric(extended, 'speedup.ratio')!.processes).toEqual([1, 2, 4, 8]);
  });

  it('leaves metrics without per-process values, and those the second look did not measure, as they were', () => {
    const extended = extendProcesses(first, testRunRecord([exact(9)]));
    expect(extended.metrics).toEqual(first.metrics);
  });

  it('takes the median of times with a true 0 ms over both looks, and keeps no first-look CI', () => {
    const times = combineProcessRecords(records([time(0.1)], [time(0.2)], [time(0.3)]));
    const extended = extendProcesses(times, combineProcessRecords(records([time(0)], [time(0)])));
    expect(metric(extended, 'speedup.time')).toMatchObject({ value: 0.1, processes: [0.1, 0.2, 0.3, 0, 0] });
    expect(metric(extended, 'speedup.time')!.ci).toBeUndefined();
    expect(() => runRecordSchema.parse(extended)).not.toThrow();
  });

  it('keeps the errors and diagnostics of both looks', () => {
    const withErrors = { ...first, errors: [{ scenario: 'speedup', test: 'a', message: 'x' }], diagnostics: [diagnostics(1)] };
    const more = testRunRecord([ratio(2)], { errors: [{ scenario: 'speedup', test: 'b', message: 'y' }], diagnostics: [diagnostics(2)] });
    const extended = extendProcesses(withErrors, more);
    expect(extended.errors.map((e) => e.test)).toEqual(['a', 'b']);
    expect(extended.diagnostics!.map((d) => d.involuntaryContextSwitches)).toEqual([1, 2]);
  });
});
