import { describe, expect, it } from 'vitest';
import { makeBaseline } from '../results/baseline.js';
import { compareWithBaseline } from '../results/compare.js';
import { testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from '../results/schema.js';
import { consoleExporter } from './console.js';
import { htmlExporter } from './html.js';
import { runSummary } from './summary.js';

const pair = { a: 'cpu-normalize', b: 'device-normalize' };
const ratio = (id: string, scenario: string, ci: [number, number] | undefined, extra: Partial<Metric> = {}): Metric => ({
  id,
  scenario,
  kind: 'ratio',
  value: ci ? (ci[0] + ci[1]) / 2 : 1,
  unit: 'x',
  ...(ci ? { ci } : {}),
  labels: pair,
  ...extra,
});
const bytes = (value: number): Metric => ({ id: 'memory.bytes.raw-batch', scenario: 'memory', kind: 'exact', value, unit: 'B' });

describe('runSummary', () => {
  const record = testRunRecord(
    [
      ratio('mnist-transfer.speedup', 'speedup', [1.7, 2.0], { n: 400 }),
      ratio('coco.speedup.transfer', 'coco', [0.8, 0.9], { labels: { ...pair, part: 'transfer' }, detail: 'batch [16,128,128,3]' }),
      ratio('coco.speedup.batch', 'coco', [0.9, 1.1], { labels: { ...pair, part: 'batch' }, processes: [0.9, 1, 1.1] }),
      ratio('dtypes.b32.uint8', 'dtypes', [0.4, 0.6], { labels: { quantity: 'speedup-vs-float32', dtype: 'uint8', batch: '32' } }),
      ratio('mine.speedup', 'mine', undefined),
      bytes(50_176),
    ],
    { errors: [{ scenario: 'kinetics', test: 'decodes', message: 'ffmpeg not found' }] },
  );

  it('leads with the article speedup in a sentence, as far as its CI allows', () => {
    expect(runSummary(record, null).headline).toBe('device-normalize is 1.85x as fast as cpu-normalize (95% CI 1.70-2.00, 400 pairs).');
    expect(runSummary(testRunRecord([bytes(1)]), null).headline).toBeNull();
  });

  it('lists the scenarios in record order (metrics, then errors), each with its line, its lead ratio and whether it fails', () => {
    const { scenarios } = runSummary(record, null);
    expect(scenarios.map((s) => [s.id, s.failed, s.speedup?.direction ?? null])).toEqual([
      ['speedup', false, 'faster'],
      ['coco', false, 'slower'],
      ['dtypes', false, 'slower'],
      ['mine', false, 'unclear'],
      ['memory', false, null],
      ['kinetics', true, null],
    ]);
    expect(scenarios[0]!.headline?.text).toBe('1.85x [1.70, 2.00]: device-normalize faster than cpu-normalize (400 pairs)');
    expect(scenarios[0]!.speedup?.ci).toEqual([1.7, 2.0]);
    expect(scenarios[3]!.speedup?.ci).toBeNull();
    expect(scenarios[3]!.headline?.text).toBe('1.00x: device-normalize vs cpu-normalize');
    expect(scenarios[5]!.headline).toBeNull();
  });

  it('marks a scenario failed when one of its metrics fails against the baseline', () => {
    const baseline = makeBaseline(testRunRecord([bytes(50_176)]), 'base.json', {});
    const changed = testRunRecord([bytes(50_177)]);
    const comparison = compareWithBaseline(changed, baseline, { allowProfileMismatch: false, gateTiming: false });
    expect(runSummary(changed, comparison).scenarios).toMatchObject([{ id: 'memory', failed: true }]);
    expect(runSummary(changed, null).scenarios).toMatchObject([{ id: 'memory', failed: false }]);
  });

  it('words each claim ratio only as far as its CI allows, where it was measured, naming uint8 where it is the subject', () => {
    const { claims, oneProcess } = runSummary(record, null);
    expect(claims.map((c) => [c.metric.id, c.compared, c.words])).toEqual([
      ['mnist-transfer.speedup', 'transfer', 'faster in this process (CI above 1)'],
      ['coco.speedup.transfer', 'transfer [16,128,128,3]', 'slower in this process (CI below 1): the claim does not hold here'],
      ['coco.speedup.batch', 'whole batch (decode + collate + transfer)', 'no clear difference across 3 processes (CI includes 1)'],
      ['dtypes.b32.uint8', 'uint8 vs float32 on the wire', 'uint8 slower in this process (CI below 1): the claim does not hold here'],
      ['mine.speedup', 'transfer', 'no clear difference in this process (no CI)'],
    ]);
    expect(oneProcess).toBe(false);
    expect(runSummary(testRunRecord([ratio('mnist-transfer.speedup', 'speedup', [1.1, 1.2])]), null).oneProcess).toBe(true);
  });

  it('is what both the console and the HTML page say of each scenario', async () => {
    const input = { record, recordPath: null, comparison: null };
    const consoleText = await consoleExporter.render(input, { color: false });
    const html = await htmlExporter.render(input, { color: false });
    for (const s of runSummary(record, null).scenarios) {
      if (!s.headline) continue;
      expect(consoleText).toContain(`${s.id.padEnd(8)}  ${s.headline.text}`);
      expect(html).toContain(`<p class="meta headline">${s.headline.text.replace(/&/g, '&amp;')}</p>`);
    }
    expect(consoleText).toContain(`Headline: ${runSummary(record, null).headline}`);
  });
});
