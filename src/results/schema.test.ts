import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineSchema, makeBaseline, readBaseline } from './baseline.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { metricSchema, runRecordSchema, type Metric } from './schema.js';

const ROOT = resolve(import.meta.dirname, '../..');

const metric = (over: Partial<Metric>): Metric => ({ id: 'a.b', scenario: 's', kind: 'exact', value: 1, unit: 'B', ...over });
/** The schema's messages for one metric, or [] when it is accepted. */
const problems = (over: Partial<Metric>) => metricSchema.safeParse(metric(over)).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('validation means plausible, not only well-typed (issue 21 #9)', () => {
  it('takes exact metrics as counts and byte sizes: whole numbers >= 0, 0 included', () => {
    expect(problems({ value: 0 })).toEqual([]);
    expect(problems({ value: 50_176 })).toEqual([]);
    expect(problems({ id: 'mnist-loader.batch-bytes', value: -50_176 })).toEqual([
      'value: metric mnist-loader.batch-bytes (exact, B): a count or byte size must be a whole number >= 0, got -50176',
    ]);
    expect(problems({ unit: 'tensors', value: 1.5 })).toEqual([
      'value: metric a.b (exact, tensors): a count or byte size must be a whole number >= 0, got 1.5',
    ]);
  });

  it('takes ratios as > 0 and times as >= 0 (a stage without kernels takes 0 ms), in value, CI and per-process values', () => {
    const ratio = { kind: 'ratio' as const, unit: 'x' };
    const time = { kind: 'time' as const, unit: 'ms' };
    expect(problems({ ...ratio, value: 1.2, ci: [1.1, 1.3], processes: [1.1, 1.3] })).toEqual([]);
    expect(problems({ ...ratio, id: 'mnist-transfer.speedup', value: -1 })).toEqual([
      'value: metric mnist-transfer.speedup (ratio, x): a ratio of two times must be > 0, got -1',
    ]);
    expect(problems({ ...ratio, value: 0 })).toHaveLength(1);
    expect(problems({ ...ratio, value: 0.5, ci: [0, 1] })).toEqual(['ci: metric a.b (ratio, x): a ratio of two times must be > 0, got 0']);
    expect(problems({ ...ratio, value: 1, processes: [1, -1] })).toEqual(['processes: metric a.b (ratio, x): a ratio of two times must be > 0, got -1']);
    expect(problems({ ...time, value: 0 })).toEqual([]);
    expect(problems({ ...time, value: -0.1 })).toEqual(['value: metric a.b (time, ms): a time must be >= 0, got -0.1']);
  });

  it('lets quality figures be any finite number: heap growth, loss change and input-bound fractions may be negative', () => {
    expect(problems({ kind: 'quality', unit: 'B', value: -73_712, bound: { max: 16_777_216 } })).toEqual([]);
    expect(problems({ kind: 'quality', unit: '', value: -0.24, bound: {} })).toEqual([]);
    expect(problems({ kind: 'quality', unit: '', value: 0.5, bound: { min: 1, max: 0 } })).toEqual(['bound: metric a.b (quality): bound min 1 > max 0']);
  });

  it('wants a CI ordered and around its value (a few ulps of rounding allowed)', () => {
    const ratio = { kind: 'ratio' as const, unit: 'x' };
    expect(problems({ ...ratio, value: 1.5, ci: [2, 1] })).toEqual(['ci: metric a.b (ratio, x): confidence interval [2, 1] is reversed (lo > hi)']);
    expect(problems({ ...ratio, value: 3, ci: [1, 2] })).toEqual(['ci: metric a.b (ratio, x): confidence interval [1, 2] does not contain the value 3']);
    expect(problems({ ...ratio, value: 2 + 1e-15, ci: [2, 2] })).toEqual([]);
  });

  it('wants paired samples paired and >= 0 ms', () => {
    const ratio = { kind: 'ratio' as const, unit: 'x', value: 1 };
    expect(problems({ ...ratio, samples: { a: [1, 2], b: [1, 2] } })).toEqual([]);
    expect(problems({ ...ratio, samples: { a: [1, 2], b: [1] } })).toEqual(['samples: metric a.b (ratio, x): paired samples of unequal length (2 vs 1)']);
    expect(problems({ ...ratio, samples: { a: [1], b: [-1] } })).toEqual(['samples: metric a.b (ratio, x): a sample time must be >= 0 ms, got -1']);
  });

  it('refuses a metric id twice in a record or a baseline, naming it', () => {
    const twice = testRunRecord([metric({ id: 'x.up' }), metric({ id: 'x.down' }), metric({ id: 'x.up', value: 2 })]);
    expect(runRecordSchema.safeParse(twice).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'metrics.2.id: metric id x.up appears twice (metrics 0 and 2)',
    ]);
    const baseline = makeBaseline(testRunRecord([metric({ id: 'x.up' })]), 'run.json', {});
    const doubled = { ...baseline, metrics: [...baseline.metrics, ...baseline.metrics] };
    expect(baselineSchema.safeParse(doubled).error?.issues[0]?.message).toBe('metric id x.up appears twice (metrics 0 and 1)');
  });

  it('applies the same rules to baseline metrics (which add a tolerance)', () => {
    const baseline = makeBaseline(testRunRecord([metric({ id: 'x.up' })]), 'run.json', {});
    const negative = { ...baseline, metrics: [{ ...baseline.metrics[0]!, value: -1 }] };
    expect(baselineSchema.safeParse(negative).error?.issues[0]?.message).toMatch(/^metric x.up \(exact, B\): a count or byte size/);
  });

  it('still accepts every committed baseline', async () => {
    const files = readdirSync(join(ROOT, 'baselines')).filter((f) => /^[^.]+\.(full\.)?json$/.test(f) && f !== 'tolerances.json');
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) await expect(readBaseline(join(ROOT, 'baselines', f)), f).resolves.toMatchObject({ metrics: expect.any(Array) });
  });
});
