import { describe, expect, it } from 'vitest';
import { testRunRecord } from '../../test/support/run-record.js';
import { baselineSchema, makeBaseline } from '../results/baseline.js';
import { valueDiff } from './baseline.js';

describe('valueDiff (what perf:baseline shows before it writes)', () => {
  it('leaves the baselines it compares untouched: a CI of tiny times keeps every digit and still holds its value', async () => {
    const tiny = {
      id: 'x.stage-ms.host',
      scenario: 'x',
      kind: 'time' as const,
      value: 0.00032018819431112774,
      unit: 'ms',
      ci: [0.0002980915782872129, 0.0003433227303369101] as [number, number],
    };
    const before = makeBaseline(testRunRecord([{ ...tiny, value: 0.0004, ci: [0.00035, 0.00045] }]), 'a.json', {});
    const next = makeBaseline(testRunRecord([tiny]), 'b.json', {});
    const copy = structuredClone(next);
    expect(await valueDiff(before, next)).not.toBe('');
    // json-diff's precision option rounded these arrays in place: [0.0003, 0.0003], no longer holding 0.00032.
    expect(next).toEqual(copy);
    expect(baselineSchema.safeParse(next).success).toBe(true);
  });
});
