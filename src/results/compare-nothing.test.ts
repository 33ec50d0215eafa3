import { describe, expect, it } from 'vitest';
import { testRunRecord } from '../../test/support/run-record.js';
import { makeBaseline } from './baseline.js';
import { compareWithBaseline } from './compare.js';
import { EXIT } from './exit.js';

// Issue 34, item 3: a comparison with nothing to judge is exit 3 (as docs/usage.md says), not a pass.
const exact = (id: string) => ({ id, scenario: 'device-normalize', kind: 'exact' as const, value: 5, unit: 'B' });
const time = (id: string) => ({ id, scenario: 'speedup', kind: 'time' as const, value: 2, unit: 'ms' });
const options = { allowProfileMismatch: true, gateTiming: false };

describe('a comparison that judges nothing', () => {
  it('is exit 3 with the reason, when neither side has a metric', () => {
    const c = compareWithBaseline(testRunRecord([]), makeBaseline(testRunRecord([]), 'r.json', {}), options);
    expect(c).toMatchObject({ verdicts: [], exitCode: EXIT.noBaseline, refused: 'nothing to judge: neither the run nor the baseline has a metric to compare' });
  });

  it('is exit 3 across profiles when the only metrics are times (compared on the same hardware only)', () => {
    const run = testRunRecord([time('speedup.time')]);
    const other = testRunRecord([time('speedup.time')], { profile: { ...run.profile, id: 'cpu-x64' } });
    expect(compareWithBaseline(run, makeBaseline(other, 'r.json', {}), options).exitCode).toBe(EXIT.noBaseline);
  });

  it('is exit 3 on the same profile when the only shared metrics are times and timing is not gated', () => {
    const run = testRunRecord([time('speedup.time')]);
    const c = compareWithBaseline(run, makeBaseline(run, 'r.json', {}), options);
    expect(c.exitCode).toBe(EXIT.noBaseline);
    expect(c.refused).toMatch(/^nothing to judge: none of the run's metrics can be judged/);
  });

  it('passes a run whose metrics are all new to the baseline (a --shape question, a scenario it lacks): its news, not a refusal', () => {
    const baseline = makeBaseline(testRunRecord([]), 'r.json', {});
    expect(compareWithBaseline(testRunRecord([exact('x.up')]), baseline, options)).toMatchObject({ exitCode: EXIT.pass, refused: null });
  });

  it('still judges a metric that is there (a pass is 0, a missing one fails)', () => {
    const baseline = makeBaseline(testRunRecord([exact('x.up')]), 'r.json', {});
    expect(compareWithBaseline(testRunRecord([exact('x.up')]), baseline, options)).toMatchObject({ exitCode: EXIT.pass, refused: null });
    expect(compareWithBaseline(testRunRecord([]), baseline, options).exitCode).toBe(EXIT.regression);
  });
});
