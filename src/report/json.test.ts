import { describe, expect, it } from 'vitest';
import { makeBaseline } from '../results/baseline.js';
import { compareWithBaseline } from '../results/compare.js';
import { testRatio, testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from '../results/schema.js';
import { jsonExporter } from './json.js';

const ratio = testRatio;
const bytes = (value: number): Metric => ({ id: 'x.upload-bytes', scenario: 'device-normalize', kind: 'exact', value, unit: 'B' });

const baseline = makeBaseline(
  testRunRecord([ratio('one.speedup', 0.777, [0.76, 0.79]), ratio('many.speedup', 1.05, [1.0, 1.1], [1.04, 1.07, 1.02, 1.06, 1.05, 1.08]), bytes(50_176)]),
  'run.json',
  {},
);
const options = { allowProfileMismatch: false, gateTiming: false };

async function json(metrics: Metric[]) {
  const record = testRunRecord(metrics);
  const comparison = compareWithBaseline(record, baseline, options);
  return { comparison, body: JSON.parse(await jsonExporter.render({ record, recordPath: null, comparison }, { color: false })) };
}

describe('jsonExporter', () => {
  it("labels a one-process ratio 'info (one process)' beside its internal verdict, and keeps every field of each verdict", async () => {
    const { comparison, body } = await json([
      ratio('one.speedup', 0.913, [0.9, 0.926]),
      ratio('many.speedup', 1.05, [1.01, 1.09], [1.05, 1.03, 1.06, 1.04, 1.07, 1.02]),
      bytes(50_177),
    ]);
    const byId = Object.fromEntries(body.verdicts.map((v: { id: string }) => [v.id, v]));
    // The in-process CI lies above the baseline's band: internally 'improved', to a reader information.
    expect(byId['one.speedup']).toMatchObject({ verdict: 'improved', gates: false, label: 'info (one process)' });
    expect(byId['many.speedup'].label).toBe(byId['many.speedup'].verdict);
    expect(byId['many.speedup'].label).not.toMatch(/one process/);
    expect(byId['x.upload-bytes']).toMatchObject({ verdict: 'regressed', gates: true, label: 'regressed' });
    // Nothing removed: each entry is the comparison's verdict plus its label.
    expect(body.verdicts).toEqual(JSON.parse(JSON.stringify(comparison.verdicts)).map((v: object, i: number) => ({ ...v, label: body.verdicts[i].label })));
    expect(body.exitCode).toBe(comparison.exitCode);
    expect(body.runProfile).toBe(comparison.runProfile);
  });

  it('says there was no baseline when nothing was compared', async () => {
    const record = testRunRecord([bytes(1)]);
    const body = JSON.parse(await jsonExporter.render({ record, recordPath: null, comparison: null }, { color: false }));
    expect(body).toEqual({ runProfile: 'webgpu-lavapipe-x64', scale: 'quick', refused: 'no baseline for this profile', verdicts: [] });
  });
});
