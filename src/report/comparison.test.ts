import { describe, expect, it } from 'vitest';
import { makeBaseline } from '../results/baseline.js';
import { compareWithBaseline, EXIT } from '../results/compare.js';
import { testRatio, testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from '../results/schema.js';
import { ACROSS_PROCESSES, renderComparison, renderComparisonBrief, summaryLine, verdictLabel } from './comparison.js';
import { consoleExporter, verboseConsoleExporter } from './console.js';
import { markdownExporter } from './markdown.js';

const ratio = (id: string, value: number, ci: [number, number], processes?: number[]): Metric => ({ ...testRatio(id, value, ci, processes), n: 400 });
const bytes = (value: number): Metric => ({ id: 'x.upload-bytes', scenario: 'device-normalize', kind: 'exact', value, unit: 'B' });
const time = (value: number): Metric => ({ id: 'x.time', scenario: 'speedup', kind: 'time', value, unit: 'ms' });

// As on the CI machine: the code did not change, yet each process's speedup lands elsewhere, its
// in-process CI far narrower than that spread (one wholly above the baseline's band, one below).
const baselineMetrics = [ratio('mnist-transfer.speedup', 0.777, [0.76, 0.79]), ratio('coco.speedup.transfer', 3.61, [2.8, 4.14]), bytes(50_176), time(0.5)];
const rerun = [ratio('mnist-transfer.speedup', 0.913, [0.9, 0.926]), ratio('coco.speedup.transfer', 2.53, [2.27, 2.77]), bytes(50_176), time(0.9)];
const baseline = makeBaseline(testRunRecord(baselineMetrics), 'run.json', {});
const options = { allowProfileMismatch: false, gateTiming: false };

/** Every text a person reads of a comparison: both console forms, the Markdown summary. */
async function everyText(metrics: Metric[], gateTiming = false): Promise<{ code: number; texts: string[] }> {
  const record = testRunRecord(metrics);
  const comparison = compareWithBaseline(record, baseline, { ...options, gateTiming });
  const input = { record, recordPath: 'results/run.json', comparison };
  const texts = [
    await consoleExporter.render(input, { color: false }),
    await verboseConsoleExporter.render(input, { color: false }),
    await markdownExporter.render(input, { color: false }),
    renderComparison(comparison, false),
    renderComparisonBrief(comparison, null, false),
  ];
  return { code: comparison.exitCode, texts };
}

describe('one-process ratios are information', () => {
  it('an unchanged run says no "stale", "regressed" or "improved" of them, and no advice to accept a baseline', async () => {
    const { code, texts } = await everyText(rerun);
    expect(code).toBe(EXIT.pass);
    for (const text of texts) {
      expect(text).not.toMatch(/stale|regress|improve|accept a new/i);
      // What would judge them, said once in the summary.
      expect(text.split(ACROSS_PROCESSES)).toHaveLength(2);
    }
    // Beside its baseline, with its change.
    expect(texts[1]).toMatch(/mnist-transfer\.speedup .*0\.78x \[0\.76, 0\.79\] .*0\.91x \[0\.90, 0\.93\] .*\+17\.5% .*info \(one process\)/);
    expect(texts[0]).toMatch(/speedup +0\.91x \[0\.90, 0\.93\] \(baseline 0\.78x, \+17\.5%\): device-normalize SLOWER than cpu-normalize/);
  });

  it('the summary counts them apart from the judged verdicts', () => {
    const comparison = compareWithBaseline(testRunRecord(rerun), baseline, options);
    expect(summaryLine(comparison)).toBe(
      `Verdicts: 1 pass; 2 ratios and 1 time measured in one process: information, not judged; exact and quality metrics gate; exit 0. ${ACROSS_PROCESSES}.`,
    );
    expect(comparison.verdicts.filter((v) => v.kind === 'ratio').map(verdictLabel)).toEqual(['info (one process)', 'info (one process)']);
  });

  it('a --scenario run counts the metrics of the scenarios it left out as such, not as missing', () => {
    const selection = ['perf/06-speedup.perf.ts'];
    const partial = testRunRecord(
      rerun.filter((m) => m.scenario === 'speedup'),
      { selection },
    );
    const comparison = compareWithBaseline(partial, baseline, options);
    expect(comparison.exitCode).toBe(EXIT.pass);
    expect(summaryLine(comparison, selection)).toMatch(/^Verdicts: 1 of scenarios not selected; 2 ratios and 1 time measured in one process/);
    expect(summaryLine(comparison)).toMatch(/^Verdicts: 1 missing;/);
  });

  it('under --gate-timing they fail the run as before, worded as a gate on one process', async () => {
    const { code, texts } = await everyText(rerun, true);
    expect(code).toBe(EXIT.regression);
    expect(texts[0]).toMatch(/fails \(--gate-timing\) coco\.speedup\.transfer: 95% CI \[2\.270, 2\.770\] in this one process lies wholly below/);
    expect(texts[0]).toMatch(/held to their tolerance by --gate-timing \(an in-process CI does not carry to the next process\): 2 outside it/);
    for (const text of texts) expect(text).not.toMatch(/stale|accept a new/i);
  });

  it('verdicts judged across processes keep their words', () => {
    const perProcess = (value: number) => Array.from({ length: 8 }, (_, i) => value * (1 + 0.01 * ((i % 3) - 1)));
    const base = makeBaseline(testRunRecord([ratio('mnist-transfer.speedup', 1.5, [1.45, 1.55], perProcess(1.5))]), 'run.json', {});
    const slower = testRunRecord([ratio('mnist-transfer.speedup', 1.0, [0.95, 1.05], perProcess(1.0))]);
    const comparison = compareWithBaseline(slower, base, options);
    expect(comparison.exitCode).toBe(EXIT.regression);
    expect(verdictLabel(comparison.verdicts[0]!)).toBe('regressed');
    expect(renderComparisonBrief(comparison, null, false)).toMatch(/^ {2}regressed mnist-transfer\.speedup: across processes/m);
    expect(summaryLine(comparison)).toMatch(/^Verdicts: 1 regressed; exact and quality metrics, ratios judged across processes gate; exit 1\.$/);
  });
});

describe('the default console report', () => {
  it('is one line per scenario, then only what fails, the verdicts and the record', async () => {
    const worse = testRunRecord([...rerun.filter((m) => m.kind !== 'exact'), bytes(200_704)]);
    const comparison = compareWithBaseline(worse, baseline, options);
    const text = await consoleExporter.render({ record: worse, recordPath: 'results/run.json', comparison }, { color: false });
    const lines = text.split('\n');
    expect(lines.filter((l) => /^ {2}[✓✗] /.test(l))).toEqual([
      expect.stringMatching(/^ {2}✓ speedup +0\.91x/),
      expect.stringMatching(/^ {2}✗ device-normalize +x\.upload-bytes 200,704 B \(196\.00 KB\)$/),
    ]);
    expect(text).toMatch(/1 failing\n {2}regressed x\.upload-bytes: 200704 vs baseline 50176/);
    expect(lines.at(-2)).toMatch(/^Verdicts: .*exit 1\./);
    expect(lines.at(-1)).toBe('Run record: results/run.json');
    expect(text).not.toContain('┌'); // no tables
  });
});
