import { describe, expect, it } from 'vitest';
import { makeBaseline } from '../results/baseline.js';
import { compareWithBaseline } from '../results/compare.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { escapeHtml, firstScreen, htmlExporter } from './html.js';
import { runSummary, scenariosOf } from './summary.js';
import { reportTestComparison, reportTestRecord } from '../../test/support/report.js';
import { shapeTestRecord, userTestRecord } from '../../test/support/user-record.js';
import type { RunRecord } from '../results/schema.js';

/** A page's text as a reader sees it: tags dropped, entities decoded, white space collapsed. */
const text = (html: string) =>
  html
    .replace(/<svg[\s\S]*?<\/svg>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:)])/g, '$1')
    .replace(/\( /g, '(');

describe('htmlExporter', () => {
  it('escapes text from the record', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('renders one self-contained page: no scripts, no external references, inline SVG charts', async () => {
    const record = reportTestRecord();
    const html = await htmlExporter.render({ record, recordPath: 'results/x.json', comparison: reportTestComparison(record) }, { color: false });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|src="http|href="http/i);
    expect(html).toContain("default-src 'none'");
    expect((html.match(/<figure class="chart"/g) ?? []).length).toBe(8);
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(8);
    expect(html).toContain('<meta name="generator" content="gpu-transfer-perf">');
    for (const s of scenariosOf(record)) expect(html).toContain(`data-scenario="${s}"`);
    expect(html).toContain('ffmpeg not found &lt;script&gt;');
    expect(html).toContain('class="verdict-regressed"');
    expect(html).toContain('In the baseline, not in this run (1)');
    expect(html).toContain('Conv2DBackpropFilter');
  });

  it('answers the three questions first, in order: the claim per scenario, regressions, distance to the limit', async () => {
    const record = reportTestRecord();
    const html = await htmlExporter.render({ record, recordPath: 'results/x.json', comparison: reportTestComparison(record) }, { color: false });
    const at = (marker: string) => {
      const i = html.indexOf(marker);
      expect(i, marker).toBeGreaterThan(0);
      return i;
    };
    // Right under the title and its one line of facts, before everything else.
    const order = [
      '</h1>',
      'id="at-a-glance"',
      'id="claim"',
      'id="regressions"',
      'id="limits"',
      'id="errors"',
      'id="charts"',
      'id="scenarios"',
      'id="profile"',
    ];
    const positions = order.map(at);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    const section = (id: string) => text(html.slice(at(`id="${id}"`), html.indexOf('</section>', at(`id="${id}"`))));

    // (a) Each scenario's speedup with its CI and what it says as far as the CI goes; the sweep in one row.
    const claim = section('claim');
    expect(claim).toContain("1. Is the article's claim true on this machine?");
    expect(claim).toContain('In part, in this process: device-normalize was faster in 4 of 9 comparisons, slower in 4, no clear difference in 1.');
    expect(claim).toContain('speedup transfer 1.06x [1.03, 1.09] faster in this process (CI above 1)');
    expect(claim).toContain('coco transfer [16,128,128,3] 2.49x [2.45, 2.54] faster in this process (CI above 1)');
    expect(claim).toContain('coco whole batch (decode + collate + transfer) 1.01x [0.82, 1.32] no clear difference in this process (CI includes 1)');
    expect(claim).toContain(
      'dtypes uint8 vs float32 on the wire [32,224,224,3] 0.50x [0.49, 0.50] uint8 slower in this process (CI below 1): the claim does not hold here',
    );
    expect(claim).toContain('sweep transfer at 5 batch sizes 0.61x to 1.15x');
    expect(claim).toContain('faster at batch 256, 512; slower at batch 32, 64, 128');
    expect(claim).toContain('not a verdict across runs');
    // Ratios that do not test the claim (a fed step against a resident one) stay in their tables.
    expect(claim).not.toContain('resident');

    // (b) Gating verdicts only: the exact byte count that changed and the run's error; the
    // one-process ratio far below its baseline is information, not a regression.
    const regressions = section('regressions');
    expect(regressions).toContain('Yes: 1 gating figure regressed against baseline webgpu-lavapipe-x64 (quick scale), and the run has 1 error; exit 1.');
    expect(regressions).toContain('mnist-transfer.upload-bytes.cpu-normalize');
    expect(regressions).not.toContain('coco.speedup.transfer');
    expect(regressions).toContain('ratios measured in one process');

    // (c) One small chart of total / limit, and its extremes in words.
    const limits = html.slice(at('id="limits"'), at('id="errors"'));
    expect((limits.match(/<figure class="chart" data-chart="limits"/g) ?? []).length).toBe(1);
    expect(text(limits)).toMatch(/Closest: \S+ in \S+ at [\d.]+x its limit; farthest: \S+ in \S+ at [\d.]+x its limit\./);
    expect(text(limits)).toContain('1 = at the limit');
    // The limit chart is not drawn twice.
    expect((html.match(/data-chart="limits"/g) ?? []).length).toBe(1);
  });

  it('never calls a one-process ratio regressed, improved or stale; gating verdicts keep their word', async () => {
    const record = reportTestRecord();
    const comparison = reportTestComparison(record);
    expect(comparison.verdicts.find((v) => v.id === 'coco.speedup.transfer')).toMatchObject({ verdict: 'regressed', gates: false });
    const html = await htmlExporter.render({ record, recordPath: 'results/x.json', comparison }, { color: false });
    // The metric's row in its scenario's table.
    const row = (id: string) =>
      html
        .split('<tr>')
        .find((r) => r.startsWith(`<td class="metric"><code>${id}</code>`))!
        .split('</tr>')[0]!;
    const ratioRow = row('coco.speedup.transfer');
    expect(ratioRow).toContain('class="verdict-info"');
    expect(ratioRow).not.toMatch(/regressed|improved|stale|accept a new/i);
    for (const v of comparison.verdicts.filter((x) => x.kind === 'ratio' && !x.gates && x.current && x.baseline))
      expect(row(v.id)).not.toMatch(/regressed|improved|stale/i);
    expect(row('mnist-transfer.upload-bytes.cpu-normalize')).toContain('<td class="verdict-regressed"');
    // No verdict count that lumps information in with the gating verdicts.
    expect(html).not.toMatch(/\d+ regressed/);
  });

  it('says when there is no baseline, and renders a run with no metrics: only the regression answer, nothing filled with "measured no"', async () => {
    const html = await htmlExporter.render({ record: testRunRecord([]), recordPath: null, comparison: null }, { color: false });
    expect(html).toContain('1. Did anything regress against the baseline?');
    expect(html).toContain('No baseline for this profile: nothing compared.');
    expect(html).not.toMatch(/measured no|id="claim"|id="ratios"|id="limits"|id="stages"/);
    expect(html).not.toContain('<figure');
  });

  it('passes a run that regressed nothing: the gating figures counted, the informational ones set apart', async () => {
    const record = reportTestRecord();
    const clean = { ...record, errors: [] };
    const baseline = makeBaseline(clean, 'fixture', {}, '2026-12-01T10:00:00.000Z');
    const comparison = compareWithBaseline(clean, baseline, { allowProfileMismatch: false, gateTiming: false });
    const html = await htmlExporter.render({ record: clean, recordPath: 'results/x.json', comparison }, { color: false });
    const gating = comparison.verdicts.filter((v) => v.gates).length;
    expect(text(html)).toContain(`No: all ${gating} gating figures pass against baseline webgpu-lavapipe-x64 (quick scale); exit 0.`);
  });

  it('a one-scenario run: what passed, and how many of the baseline were not selected (as the console says), not "1 of 3 pass"', async () => {
    const exact = (id: string, scenario: string) => ({ id, scenario, kind: 'exact' as const, value: 5, unit: 'B' });
    const all = testRunRecord([exact('memory.bytes', 'memory'), exact('coco.bytes', 'coco'), exact('soak.leaks', 'soak')]);
    const baseline = makeBaseline(all, 'fixture', {}, '2026-12-01T10:00:00.000Z');
    const one = testRunRecord([exact('memory.bytes', 'memory')], { selection: ['perf/browser/09-memory.perf.ts'] });
    const comparison = compareWithBaseline(one, baseline, { allowProfileMismatch: false, gateTiming: false });
    const html = await htmlExporter.render({ record: one, recordPath: 'results/x.json', comparison }, { color: false });
    expect(text(html)).toContain(
      "No: the one gating figure passes against baseline webgpu-lavapipe-x64 (quick scale); 2 more of the baseline's not judged: their scenarios were not selected; exit 0.",
    );
    expect(text(html)).not.toMatch(/1 of 3 gating figures/);
  });

  describe('the first screen answers the run it shows', () => {
    const screen = (record: RunRecord) => firstScreen(record, runSummary(record, null));

    it('yields, in order, only the answers a record has something for', () => {
      expect(screen(reportTestRecord())).toMatchObject({ answers: ['claim', 'regressions', 'limits'], ownRatios: [], ratioChartIn: null, articleRun: true });
      const user = screen(userTestRecord());
      expect(user).toMatchObject({ answers: ['ratios', 'regressions'], ratioChartIn: 'ratios', articleRun: false });
      expect(user.ownRatios.map((m) => m.id)).toEqual(['rgb-batches.speedup', 'resize.speedup.bilinear-vs-nearest', 'resize.cache-hit-gain']);
      // A --shape question: the article's two strategies at the user's shape, with its limits, or only its stages on a backend without them.
      expect(screen(shapeTestRecord())).toMatchObject({ answers: ['claim', 'regressions', 'limits'], ownRatios: [], ratioChartIn: 'claim', articleRun: false });
      expect(screen(shapeTestRecord(false)).answers).toEqual(['claim', 'regressions', 'stages']);
      // A question's ratio that is not the claim (another wire type against float32) is one of the run's own, after the claim.
      const record = shapeTestRecord();
      const int8 = { ...record.metrics.find((m) => m.kind === 'ratio')!, id: 'shape.8x64x64x3.speedup-vs-float32.int8', labels: { dtype: 'int8' } };
      const mixed = screen({ ...record, metrics: [...record.metrics, int8] });
      expect(mixed.answers).toEqual(['claim', 'ratios', 'regressions', 'limits']);
      expect(mixed.ownRatios.map((m) => m.id)).toEqual([int8.id]);
      expect(mixed.ratioChartIn).toBe('ratios');
      expect(screen(testRunRecord([])).answers).toEqual(['regressions']);
    });

    it("a user's run: its own ratios first, each with its CI sentence, and the chart of them; no article claim, no empty limit answer", async () => {
      const record = userTestRecord();
      const html = await htmlExporter.render({ record, recordPath: 'results/mine.json', comparison: null }, { color: false });
      const glance = html.slice(html.indexOf('id="at-a-glance"'), html.indexOf('id="charts"'));
      const ratios = text(glance.slice(glance.indexOf('id="ratios"'), glance.indexOf('id="regressions"')));
      expect(ratios).toContain("1. What do this run's ratios say?");
      expect(ratios).toContain('3 ratios, each as far as its 95% CI goes: 1 above 1, 1 below 1, 1 not clearly different from 1.');
      expect(ratios).toMatch(
        /rgb-batches\.speedup device-uint8 vs host-float32 4\.\d\dx \[\d\.\d\d, \d\.\d\d\] device-uint8 faster than host-float32 in this process \(CI above 1\)/,
      );
      expect(ratios).toContain('bilinear SLOWER than nearest in this process (CI below 1)');
      expect(ratios).toContain('resize.cache-hit-gain');
      expect(ratios).toContain('not clearly different from 1 in this process (CI includes 1)');
      // The chart of every ratio, in the answer and not again below.
      expect((glance.match(/data-chart="ratios"/g) ?? []).length).toBe(1);
      expect((html.match(/data-chart="ratios"/g) ?? []).length).toBe(1);
      expect(text(glance)).toContain(
        "2. Did anything regress against the baseline? No baseline for this profile: nothing compared. Accept a run as this profile's baseline with npx gtp baseline results/mine.json.",
      );
      expect(text(glance)).not.toMatch(/article's claim|measured no|device's limit|npm run/);
      // Its times have a chart too, beside the others.
      expect(html.slice(html.indexOf('id="charts"'))).toContain('data-chart="times-ms"');
    });

    it("a user's ratios beside their baseline: information on the first screen, the regression answer judges", async () => {
      const record = userTestRecord();
      const baseline = makeBaseline(
        {
          ...record,
          metrics: record.metrics.map((m) =>
            m.id === 'rgb-batches.speedup' && m.ci ? { ...m, value: 2 * m.value, ci: [2 * m.ci[0], 2 * m.ci[1]] as [number, number] } : m,
          ),
        },
        'fixture',
        {},
        '2026-12-01T10:00:00.000Z',
      );
      const comparison = compareWithBaseline(record, baseline, { allowProfileMismatch: false, gateTiming: false });
      const html = await htmlExporter.render({ record, recordPath: null, comparison }, { color: false });
      const ratios = html.slice(html.indexOf('id="ratios"'), html.indexOf('id="regressions"'));
      expect(text(ratios)).toContain('scenario ratio value 95% CI baseline change what it says');
      expect(text(ratios)).toMatch(/rgb-batches\.speedup device-uint8 vs host-float32 4\.\d\dx \[[\d.]+, [\d.]+\] 8\.\d\dx -50\.0% device-uint8 faster/);
      expect(ratios).not.toMatch(/regressed/);
      expect(text(html.slice(html.indexOf('id="regressions"')))).toContain('Not judged: 3 ratios measured in one process and 3 absolute times');
    });

    it('a single ratio leads with its own sentence; a run with stages and no limits says where the time goes', async () => {
      const record = userTestRecord();
      const one = { ...record, metrics: record.metrics.filter((m) => m.scenario === 'rgb-batches') };
      const html = await htmlExporter.render({ record: one, recordPath: null, comparison: null }, { color: false });
      expect(text(html)).toMatch(/rgb-batches\.speedup: 4\.\d\dx \[[\d.]+, [\d.]+\], device-uint8 faster than host-float32 in this process \(CI above 1\)\./);

      const stages = await htmlExporter.render({ record: shapeTestRecord(false), recordPath: null, comparison: null }, { color: false });
      const answer = text(stages.slice(stages.indexOf('id="stages"'), stages.indexOf('</section>', stages.indexOf('id="stages"'))));
      expect(answer).toContain('3. Where does the time go?');
      expect(answer).toContain(
        'Largest stage of each strategy: cpu-normalize in shape.8x64x64x3: host 0.4 ms of 0.75 ms; device-normalize in shape.8x64x64x3: compute 0.2 ms of 0.301 ms.',
      );
      expect(stages).toContain('href="#chart-stages"');
      expect(stages).toContain('id="chart-stages"');
      expect(stages).not.toContain('id="limits"');
      // The question's claim answer holds the chart of its ratio.
      const claim = stages.slice(stages.indexOf('id="claim"'), stages.indexOf('id="regressions"'));
      expect(claim).toContain('data-chart="ratios"');
      expect(text(claim)).toContain('--processes K gives one value per process');
    });
  });
});
