import { describe, expect, it } from 'vitest';
import { assembleRunRecord, type CollectedTest } from './assemble.js';
import type { MetricInput } from './metrics.js';
import { testRunRecord } from './run-record.fixture.js';

const profile = testRunRecord([]).profile;
const run = {
  profile,
  createdAt: '2026-12-03T10:00:00.000Z',
  scale: 'quick' as const,
  selection: null,
  datasets: {},
  git: { commit: 'abc', dirty: false },
  unhandledErrors: [],
};
const test = (metrics: MetricInput[]): CollectedTest => ({
  scenario: 'memory',
  name: 'counts bytes',
  state: 'passed',
  errors: [],
  perf: { metrics, kernelTables: {} },
});

describe('assembleRunRecord', () => {
  it('keeps plausible metrics and turns an impossible one into an error of its test, not a refused record', () => {
    const record = assembleRunRecord(
      [
        test([
          { id: 'memory.bytes', kind: 'exact', value: 50_176, unit: 'B' },
          { id: 'memory.bad-bytes', kind: 'exact', value: -4, unit: 'B' },
          { id: 'memory.bytes', kind: 'exact', value: 1, unit: 'B' },
        ]),
      ],
      run,
    );
    expect(record?.metrics.map((m) => m.id)).toEqual(['memory.bytes']);
    expect(record?.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/metric memory.bad-bytes .*whole number >= 0, got -4; not recorded/),
      'metric memory.bytes recorded twice; kept the first',
    ]);
  });

  it('is null when no test reached a backend', () => {
    expect(assembleRunRecord([test([])], { ...run, profile: null })).toBeNull();
  });
});
