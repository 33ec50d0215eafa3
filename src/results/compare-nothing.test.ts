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

  it('is exit 3 across profiles when no ratio or exact metric is on both sides (a browser record against the Node baseline), not "N missing, 1 new" and 0', () => {
    const node = testRunRecord([exact('speedup.bytes'), { ...exact('speedup.ratio'), kind: 'ratio' as const, unit: 'x' }]);
    const browser = testRunRecord([exact('browser-speedup.bytes')], { profile: { ...node.profile, id: 'webgpu-chromium-156-swiftshader-x64' } });
    const c = compareWithBaseline(browser, makeBaseline(node, 'r.json', {}), options);
    expect(c).toMatchObject({ verdicts: [], exitCode: EXIT.noBaseline });
    expect(c.refused).toBe(
      'nothing compared: no ratio or exact metric is on both sides (the run has 1 metric of those kinds, the baseline webgpu-lavapipe-x64 2 metrics, none with the same id), so this run cannot be judged against it; compare it with a baseline of its own kind of run',
    );
    // One shared metric across profiles is a comparison: judged as before.
    const shared = testRunRecord([exact('speedup.bytes')], { profile: browser.profile });
    expect(compareWithBaseline(shared, makeBaseline(node, 'r.json', {}), options).refused).toBeNull();
  });

  it('still judges a metric that is there (a pass is 0, a missing one fails)', () => {
    const baseline = makeBaseline(testRunRecord([exact('x.up')]), 'r.json', {});
    expect(compareWithBaseline(testRunRecord([exact('x.up')]), baseline, options)).toMatchObject({ exitCode: EXIT.pass, refused: null });
    expect(compareWithBaseline(testRunRecord([]), baseline, options).exitCode).toBe(EXIT.regression);
  });
});
