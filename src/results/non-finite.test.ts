import { describe, expect, it } from 'vitest';
import { assembleRunRecord, type RecordedByTest } from './assemble.js';
import { timeMetric } from './metrics.js';
import { decodeNonFinite, encodeNonFinite } from './non-finite.js';
import { metricProblems } from './schema.js';
import { testRunRecord } from '../../test/support/run-record.js';

// Issue 51, item 6: a page's NaN and Infinity crossed vitest's JSON hand-off as null, and the
// record said "got null" (or crashed on a ZodError with a stack). Marked in the page, restored in the host.
const crossJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('non-finite numbers across the JSON hand-off of a page', () => {
  it('JSON alone turns them into null: what the page used to hand over', () => {
    expect(crossJson({ value: Number.NaN, ci: [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY] })).toEqual({ value: null, ci: [null, null] });
  });

  it('marked, they come back as they were, at any depth; every other value as it was', () => {
    const metric = { id: 'a', value: Number.NaN, ci: [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY], n: 3, detail: 'NaN', labels: { x: 'Infinity' } };
    const back = decodeNonFinite(crossJson(encodeNonFinite(metric)));
    expect(back.value).toBeNaN();
    expect(back.ci).toEqual([Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]);
    expect(back).toMatchObject({ id: 'a', n: 3, detail: 'NaN', labels: { x: 'Infinity' } });
    // Finite values are not marked (what Node's workers hand over has no mark and stays as it is).
    expect(encodeNonFinite({ value: 1.5, ci: [1, 2] })).toEqual({ value: 1.5, ci: [1, 2] });
    expect(decodeNonFinite({ value: 1.5, other: { $gtpNumber: 'nonsense' } })).toEqual({ value: 1.5, other: { $gtpNumber: 'nonsense' } });
  });

  it("the record's validation names them as NaN and Infinity, one error each, and keeps the rest of the run", () => {
    const page: RecordedByTest = {
      metrics: [
        timeMetric('page.nan', Number.NaN, 3, { detail: 'x' }),
        timeMetric('page.inf', Number.POSITIVE_INFINITY, 3, { detail: 'y' }),
        timeMetric('page.ok', 2, 3, { detail: 'z' }),
      ],
      kernelTables: {},
    };
    const perf = decodeNonFinite(crossJson(encodeNonFinite(page)));
    const { profile } = testRunRecord([]);
    const run = {
      createdAt: '2026-12-02T10:00:00.000Z',
      scale: 'quick' as const,
      selection: null,
      datasets: {},
      git: { commit: null, dirty: null },
      profile,
      unhandledErrors: [],
    };
    const record = assembleRunRecord([{ scenario: 'page', name: 'records', state: 'passed', errors: [], perf }], run)!;
    expect(record.metrics.map((m) => m.id)).toEqual(['page.ok']);
    expect(record.errors.map((e) => e.message)).toEqual([
      'metric page.nan (time, ms): a value must be a finite number, got NaN; not recorded',
      'metric page.inf (time, ms): a value must be a finite number, got Infinity; not recorded',
    ]);
  });

  it('metricProblems refuses a non-finite value, bound or sample of any kind', () => {
    const problems = (m: Parameters<typeof metricProblems>[0]) => metricProblems(m).map((p) => p.message);
    const quality = { id: 'q', scenario: 's', kind: 'quality' as const, value: Number.NEGATIVE_INFINITY, unit: '' };
    expect(problems(quality)).toEqual(['metric q (quality): a value must be a finite number, got -Infinity']);
    expect(problems({ ...quality, value: 0, bound: { max: Number.NaN } })).toEqual(['metric q (quality): a bound must be a finite number, got NaN']);
    const ratio = { id: 'r', scenario: 's', kind: 'ratio' as const, value: 1, unit: 'x', samples: { a: [1], b: [Number.POSITIVE_INFINITY] } };
    expect(problems(ratio)).toEqual(['metric r (ratio, x): a sample time must be a finite number, got Infinity']);
  });
});
