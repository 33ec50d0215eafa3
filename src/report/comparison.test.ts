import { describe, expect, it } from 'vitest';
import { makeBaseline } from '../results/baseline.js';
import { compareWithBaseline, EXIT } from '../results/compare.js';
import { testRatio, testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from '../results/schema.js';
import { renderComparison, renderComparisonBrief, summaryLine, verdictLabel } from './comparison.js';
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

/** Said once in each text when ratios of one process meet a one-process baseline and no calibration. */
const CANNOT_GATE = 'ratio(s) cannot gate: the baseline holds one process of each';

describe('one-process ratios against a one-process baseline are information', () => {
  it('an unchanged run says no "stale", "regressed" or "improved" of them, says once that they cannot gate and how to fix it', async () => {
    const { code, texts } = await everyText(rerun);
    expect(code).toBe(EXIT.pass);
    for (const text of texts) {
      expect(text).not.toMatch(/stale|regress|improve|accept a new/i);
      expect(text.split(CANNOT_GATE)).toHaveLength(2);
      expect(text).toContain('npm run perf -- --processes 8 --out results/timing.json, then npm run perf:baseline -- results/timing.json --merge');
    }
    // Beside its baseline, with its change.
    expect(texts[1]).toMatch(/mnist-transfer\.speedup .*0\.78x \[0\.76, 0\.79\] .*0\.91x \[0\.90, 0\.93\] .*\+17\.5% .*info \(one process\)/);
    expect(texts[0]).toMatch(/speedup +0\.91x \[0\.90, 0\.93\] \(baseline 0\.78x, \+17\.5%\): device-normalize SLOWER than cpu-normalize/);
  });

  it('a ratio beyond its band is never passed over: its scenario is not ticked, and it is printed with baseline, value, change and why', async () => {
    const { texts } = await everyText(rerun);
    // coco.speedup.transfer fell 30% (its in-process CI wholly below the band): information, but shown.
    const why =
      /info \(one process\) coco\.speedup\.transfer: baseline 3\.61x, now 2\.53x \(-29\.9%\): 95% CI \[2\.270, 2\.770\] in this one process lies wholly below/;
    expect(texts[0]).toMatch(why);
    // Both test ratios belong to the speedup scenario.
    expect(texts[0]).toMatch(/^ {2}! speedup +0\.91x/m);
    expect(texts[0]).not.toMatch(/^ {2}✓ speedup/m);
    expect(texts[3]).toMatch(why);
  });

  it('the summary counts them apart from the judged verdicts', () => {
    const comparison = compareWithBaseline(testRunRecord(rerun), baseline, options);
    expect(summaryLine(comparison)).toBe(
      'Verdicts: 1 pass; 2 ratios of one process and 1 absolute time: information, not judged; exact and quality metrics gate; exit 0.',
    );
    expect(comparison.verdicts.filter((v) => v.kind === 'ratio').map(verdictLabel)).toEqual(['info (one process)', 'info (one process)']);
    expect(comparison.verdicts.filter((v) => v.kind === 'time').map(verdictLabel)).toEqual(['info (not judged)']);
  });

  it('a --scenario run counts the metrics of the scenarios it left out as such, not as missing', () => {
    const selection = ['perf/06-speedup.perf.ts'];
    const partial = testRunRecord(
      rerun.filter((m) => m.scenario === 'speedup'),
      { selection },
    );
    const comparison = compareWithBaseline(partial, baseline, options);
    expect(comparison.exitCode).toBe(EXIT.pass);
    expect(summaryLine(comparison, selection)).toMatch(/^Verdicts: 1 of scenarios not selected; 2 ratios of one process and 1 absolute time/);
    expect(summaryLine(comparison)).toMatch(/^Verdicts: 1 missing;/);
  });

  it('--gate-timing does not make them gate: nothing can judge one process against one; it says so for the times', async () => {
    const { code, texts } = await everyText(rerun, true);
    expect(code).toBe(EXIT.pass);
    for (const text of texts) expect(text).toContain('--gate-timing: 1 absolute time(s) cannot be judged: one process on each side');
    for (const text of texts) expect(text).not.toMatch(/stale|accept a new/i);
  });

  it('with the calibrated spread one process against one gates: a -63% ratio regresses and fails the run', () => {
    const spread = { sd: 0.088, df: 118, source: 'the calibration' };
    const gross = testRunRecord([
      ratio('mnist-transfer.speedup', 0.288, [0.28, 0.3]),
      ratio('coco.speedup.transfer', 3.5, [3.4, 3.6]),
      bytes(50_176),
      time(0.5),
    ]);
    const comparison = compareWithBaseline(gross, baseline, { ...options, spread });
    expect(comparison.exitCode).toBe(EXIT.regression);
    expect(comparison.verdicts[0]).toMatchObject({ verdict: 'regressed', gates: true, process: { method: 'prediction', processes: [1, 1] } });
    expect(comparison.verdicts[1]).toMatchObject({ verdict: 'pass', gates: true });
    expect(renderComparisonBrief(comparison, null, false)).toMatch(
      /^ {2}regressed mnist-transfer\.speedup: baseline 0\.78x, now 0\.29x \(-62\.9%\): prediction interval: -62\.9% \(1 vs 1 process; one-sided 99\.50% prediction bound/m,
    );
    expect(comparison.notes).toContain(
      '2 metric(s) of one process against several (or with the calibrated spread) judged by a prediction interval, each at one-sided level 0.0050 = 1% / 2: an unchanged run fails on any of them at most 1% of the time (docs/baselines.md)',
    );
    expect(summaryLine(comparison)).toBe(
      'Verdicts: 1 regressed, 2 pass; 1 absolute time: information, not judged; exact and quality metrics, ratios judged across processes gate; exit 1.',
    );
  });

  it('verdicts judged across processes keep their words', () => {
    const perProcess = (value: number) => Array.from({ length: 8 }, (_, i) => value * (1 + 0.01 * ((i % 3) - 1)));
    const base = makeBaseline(testRunRecord([ratio('mnist-transfer.speedup', 1.5, [1.45, 1.55], perProcess(1.5))]), 'run.json', {});
    const slower = testRunRecord([ratio('mnist-transfer.speedup', 1.0, [0.95, 1.05], perProcess(1.0))]);
    const comparison = compareWithBaseline(slower, base, options);
    expect(comparison.exitCode).toBe(EXIT.regression);
    expect(verdictLabel(comparison.verdicts[0]!)).toBe('regressed');
    expect(renderComparisonBrief(comparison, null, false)).toMatch(
      /^ {2}regressed mnist-transfer\.speedup: baseline 1\.50x, now 1\.00x \(-33\.3%\): across processes/m,
    );
    expect(summaryLine(comparison)).toMatch(/^Verdicts: 1 regressed; exact and quality metrics, ratios judged across processes gate; exit 1\.$/);
  });
});

describe('the default console report', () => {
  it('is one line per scenario, then only what fails, the verdicts and the record', async () => {
    const worse = testRunRecord([...rerun.filter((m) => m.kind !== 'exact'), bytes(200_704)]);
    const comparison = compareWithBaseline(worse, baseline, options);
    const text = await consoleExporter.render({ record: worse, recordPath: 'results/run.json', comparison }, { color: false });
    const lines = text.split('\n');
    expect(lines.filter((l) => /^ {2}[✓✗!] /.test(l))).toEqual([
      // Its coco ratio fell 30% (information, one process each): not failing, not ticked either.
      expect.stringMatching(/^ {2}! speedup +0\.91x/),
      expect.stringMatching(/^ {2}✗ device-normalize +x\.upload-bytes 200,704 B \(196\.00 KB\)$/),
    ]);
    expect(text).toMatch(
      /1 failing, 1 to look at\n {2}regressed x\.upload-bytes: baseline 50,176 B .*, now 200,704 B .* \(\+300\.0%\): 200704 vs baseline 50176/,
    );
    expect(lines.at(-2)).toMatch(/^Verdicts: .*exit 1\./);
    expect(lines.at(-1)).toBe('Run record: results/run.json');
    expect(text).not.toContain('┌'); // no tables
  });
});
