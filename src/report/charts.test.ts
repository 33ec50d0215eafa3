import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testRunRecord } from '../../test/support/run-record.js';
import { chartPath, chartSpecs, clockOf, clocksBy, drawnByBuiltIn, genericChartSpecs, limitRows, renderCharts, renderSvg, writeCharts } from './charts.js';
import { reportTestRecord } from '../../test/support/report.js';
import { shapeTestRecord, userTestRecord } from '../../test/support/user-record.js';
import type { Metric } from '../results/schema.js';

/** Data marks in vega's SVG: groups of role "mark" holding paths (lines, areas, symbols, bars) or lines (rules). */
const dataMarks = (svg: string) => (svg.match(/class="mark-(line|area|symbol|rect|rule) role-mark[^"]*"[^>]*>(<path|<line)/g) ?? []).length;

describe('charts', () => {
  it('has a chart for each kind of data the run holds, and none without data', () => {
    expect(chartSpecs(reportTestRecord()).map((c) => c.name)).toEqual([
      'limits',
      'stages',
      'sweep-time',
      'sweep-speedup',
      'training-curves',
      'training-epoch-time',
      'ratios',
      'times-ms',
    ]);
    expect(chartSpecs(testRunRecord([]))).toEqual([]);
  });

  it('renders every chart to SVG in Node with its marks, axes and a log2 batch axis', async () => {
    const charts = await renderCharts(reportTestRecord());
    for (const c of charts) {
      expect(c.svg.startsWith('<svg')).toBe(true);
      expect(dataMarks(c.svg)).toBeGreaterThan(0);
    }
    const time = charts.find((c) => c.name === 'sweep-time')!.svg;
    // Ticks at every measured size, in order, on the log axis.
    const ticks = [...time.matchAll(/>(32|64|128|256|512)<\/text>/g)].map((m) => m[1]);
    expect(ticks.slice(0, 5)).toEqual(['32', '64', '128', '256', '512']);
    expect(time).toContain('cpu-normalize');
    expect(time).toContain('device-normalize');
    // The CI bands and lines: one of each per strategy; the legend lists only the strategies present.
    expect((time.match(/class="mark-area role-mark/g) ?? []).length).toBe(2);
    expect((time.match(/class="mark-line role-mark/g) ?? []).length).toBe(2);
    expect(time).not.toContain('resident');
  });

  it('stage chart: one panel per group with only its strategies, its own axes, a title above it, one colour per stage', async () => {
    const record = reportTestRecord();
    const spec = chartSpecs(record).find((c) => c.name === 'stages')!.spec as { resolve?: unknown };
    expect(spec.resolve).toEqual({ scale: { x: 'independent', y: 'independent' }, axis: { x: 'independent', y: 'independent' } });
    const svg = (await renderCharts(record)).find((c) => c.name === 'stages')!.svg;
    // vega draws the facets as the items of one group mark of role "scope cell", each item with its
    // x axis, its y axis and its title, in that order: the n-th of each belong to one panel.
    const all = (re: RegExp) => [...svg.matchAll(re)].map((m) => m[1]!);
    const titles = all(/aria-label="Title text '([^']+)'"/g);
    const yAxes = all(/aria-label="Y-axis for a discrete scale with \d+ values?: ([^"]+)"/g);
    const xAxes = all(/aria-label="X-axis titled 'ms' for a linear scale with values from ([^"]+)"/g);
    expect(yAxes).toHaveLength(titles.length);
    expect(xAxes).toHaveLength(titles.length);
    const seen = titles.map((group, k) => ({ group, strategies: yAxes[k]!.split(', '), xAxis: xAxes[k] }));
    // The groups' own strategies, in the report's fixed order (the article's two first).
    expect(seen.map(({ group, strategies }) => ({ group, strategies }))).toEqual([
      { group: 'mnist-transfer', strategies: ['cpu-normalize', 'device-normalize'] },
      { group: 'dtypes.32x3x224x224', strategies: ['uint8', 'int8', 'float16', 'float32'] },
      { group: 'alternatives.32x224x224x3', strategies: ['device-normalize', 'naive-tfjs'] },
      { group: 'training', strategies: ['cpu-normalize', 'device-normalize', 'resident'] },
    ]);
    // Each panel its own time scale: a second in training, tenths of a ms for one MNIST batch.
    const upTo = (group: string) => Number(/to ([\d.,]+)$/.exec(seen.find((p) => p.group === group)!.xAxis!)![1]!.replace(/,/g, ''));
    expect(upTo('mnist-transfer')).toBeLessThan(1);
    expect(upTo('training')).toBeGreaterThan(1000);
    // Titles are horizontal text above the panels: no rotated header to overlap its neighbours.
    expect(svg).not.toMatch(/role-header/);
    expect(svg).not.toMatch(/rotate\(-90\)[^>]*>[^<]*(training|mnist-transfer|dtypes|alternatives)/);
    // One colour per stage: each bar's colour follows its stage.
    const colour = new Map<string, Set<string>>();
    for (const m of svg.matchAll(/aria-label="ms: [^"]*stage: (\w+)[^"]*"[^>]*fill="(#[0-9a-f]+)"/g))
      colour.set(m[1]!, (colour.get(m[1]!) ?? new Set()).add(m[2]!));
    expect([...colour.keys()].sort()).toEqual(['compute', 'host', 'input', 'train', 'upload']);
    for (const fills of colour.values()) expect(fills.size).toBe(1);
    expect(new Set([...colour.values()].map((f) => [...f][0])).size).toBe(5);
  });

  it('limit chart: total over limit of each strategy with both figures, a rule at 1', async () => {
    const record = reportTestRecord();
    const rows = limitRows(record);
    expect(rows.map((r) => `${r.group} ${r.strategy}`)).toEqual([
      'mnist-transfer cpu-normalize',
      'mnist-transfer device-normalize',
      'dtypes.32x3x224x224 uint8',
      'dtypes.32x3x224x224 int8',
      'dtypes.32x3x224x224 float16',
      'dtypes.32x3x224x224 float32',
      'alternatives.32x224x224x3 device-normalize',
      'alternatives.32x224x224x3 naive-tfjs',
      'training cpu-normalize',
      'training device-normalize',
    ]);
    const row = rows.find((r) => r.group === 'mnist-transfer' && r.strategy === 'cpu-normalize')!;
    expect(row.times).toBeCloseTo(row.total.value / row.limit.value, 12);
    const svg = (await renderCharts(record)).find((c) => c.name === 'limits')!.svg;
    expect((svg.match(/role="graphics-symbol" aria-roledescription="point"/g) ?? []).length).toBe(rows.length);
    expect(svg).toContain('class="mark-rule role-mark');
  });

  it("gives every chart a caption of what was measured and with which clock, read from the metrics' details", async () => {
    const charts = await renderCharts(reportTestRecord());
    const caption = Object.fromEntries(charts.map((c) => [c.name, c.caption]));
    for (const c of charts) {
      expect(c.caption.length, c.name).toBeGreaterThan(40);
      expect(c.caption, c.name).not.toContain('\n');
    }
    expect(caption['sweep-time']).toContain('performance.now after a device sync');
    expect(caption['sweep-speedup']).toContain('performance.now after a device sync');
    expect(caption['sweep-time']).toContain('clock: performance.now after a device sync');
    expect(caption.stages).toContain('clocks: host, input: host clock');
    expect(caption.stages).toContain('upload, compute: performance.now after a device sync');
    expect(caption.stages).toContain("train: performance.now until the step's loss is read back");
    expect(caption.limits).toContain('Limit: computed from measured figures (training: ');
    expect(caption['training-epoch-time']).toContain("performance.now until the step's loss is read back");
    expect(caption['training-curves']).toContain('no clock');
  });

  it('reads the clock from a detail: the clause naming it, a bracketed note dropped, computed figures said so', () => {
    expect(clockOf({ detail: 'median; one batch; host monotonic clock (performance.now), stopped after a device sync [re-measured once]' })).toBe(
      'host monotonic clock (performance.now), stopped after a device sync',
    );
    expect(clockOf({ detail: 'computed: sync floor 0.05 ms + 50176 B at writeBuffer speed' })).toBe('computed from measured figures');
    expect(clockOf({ detail: 'epoch 1: every batch already on the device before the clock started; host monotonic clock (performance.now)' })).toBe(
      'host monotonic clock (performance.now)',
    );
    expect(clockOf({ detail: 'mean cross-entropy' })).toBeNull();
    const m = (stage: string, detail: string) => ({ id: stage, scenario: 's', kind: 'time' as const, value: 1, unit: 'ms', detail, labels: { stage } });
    const host = m('host', 'host clock, no device work');
    const up = m('upload', 'host monotonic clock (performance.now), stopped after a device sync');
    expect(clocksBy([up, { ...up, labels: { stage: 'compute' } }, host], (x) => x.labels?.stage ?? '')).toBe(
      'performance.now after a device sync (host: host clock)',
    );
    expect(clocksBy([up, host], (x) => x.labels?.stage ?? '')).toBe('upload: performance.now after a device sync; host: host clock');
  });

  it('writes SVG and PNG files next to the run record', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'charts-'));
    try {
      const record = join(dir, 'run.json');
      const { written, skipped } = await writeCharts(reportTestRecord(), record);
      expect(skipped).toEqual([]);
      expect(written).toContain(join(dir, 'run.sweep-time.svg'));
      expect(written).toContain(chartPath(record, 'sweep-speedup', 'png'));
      expect(written).toHaveLength(16);
      const png = await sharp(await readFile(chartPath(record, 'sweep-time', 'png'))).metadata();
      expect(png.format).toBe('png');
      expect(png.width).toBeGreaterThan(500);
      for (const path of written) expect((await stat(path)).size).toBeGreaterThan(1000);
      // A second run replaces its own charts; a file of the user's at a chart path is left alone.
      await writeFile(chartPath(record, 'stages', 'png'), 'my own notes');
      const again = await writeCharts(reportTestRecord(), record);
      expect(again.skipped).toEqual([chartPath(record, 'stages', 'png')]);
      expect(again.written).toHaveLength(15);
      expect(await readFile(chartPath(record, 'stages', 'png'), 'utf8')).toBe('my own notes');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe("generic charts: the run's own metrics by kind and unit", () => {
    /** The rows a generic chart draws (every layer's inline data but the rule at 1). */
    const rowsOf = (spec: unknown): Array<Record<string, unknown>> => {
      const s = spec as { data?: { values: Array<Record<string, unknown>> }; layer: Array<{ data?: { values: Array<Record<string, unknown>> } }> };
      const values = s.data?.values ?? s.layer.map((l) => l.data?.values ?? []).find((v) => v.length > 0 && !('one' in v[0]!)) ?? [];
      return values;
    };

    it("draws a user's run that no built-in chart knows: every ratio with its CI, every time, one chart per kind and unit", () => {
      const record = userTestRecord();
      expect(chartSpecs(record).map((c) => c.name)).toEqual(['ratios', 'times-ms']);
      const [ratios, times] = genericChartSpecs(record);
      expect(rowsOf(ratios!.spec).map((r) => [r.metric, r.says])).toEqual([
        ['rgb-batches.speedup (device-uint8 vs host-float32)', 'CI above 1'],
        ['resize.speedup.bilinear-vs-nearest (bilinear vs nearest)', 'CI below 1'],
        ['resize.cache-hit-gain', 'CI includes 1'],
      ]);
      const speedup = record.metrics.find((m) => m.id === 'rgb-batches.speedup')!;
      expect(rowsOf(ratios!.spec)[0]).toMatchObject({ value: speedup.value, lo: speedup.ci![0], hi: speedup.ci![1] });
      // A dashed rule at 1, whiskers from lo to hi, points coloured by what the CI says.
      const layers = (ratios!.spec as { layer: Array<{ mark: { type: string; strokeDash?: number[] }; encoding: Record<string, { field?: string }> }> }).layer;
      expect(layers.map((l) => l.mark.type)).toEqual(['rule', 'rule', 'point']);
      expect(layers[0]!.mark.strokeDash).toBeDefined();
      expect([layers[1]!.encoding.x!.field, layers[1]!.encoding.x2!.field]).toEqual(['lo', 'hi']);
      expect(layers[2]!.encoding.color!.field).toBe('says');
      expect(ratios!.caption).toContain('clock: performance.now after a device sync');
      expect(rowsOf(times!.spec).map((r) => [r.metric, r.series])).toEqual([
        ['rgb-batches.time.host-float32', 'host-float32'],
        ['rgb-batches.time.device-uint8', 'device-uint8'],
        ['resize.time.bilinear', 'bilinear'],
      ]);
      // Within 20x of each other: bars from zero.
      expect((times!.spec as { layer: Array<{ mark: { type: string } }> }).layer[0]!.mark.type).toBe('bar');
    });

    it('groups by unit, goes to a log scale when times span more than 20x, and leaves to the built-in charts what they draw', () => {
      const t = (id: string, value: number, unit = 'ms'): Metric => ({
        id,
        scenario: 'mine',
        kind: 'time',
        value,
        unit,
        detail: 'median; host clock, no device work',
      });
      const record = testRunRecord([
        t('mine.fast', 0.01),
        t('mine.slow', 5),
        t('mine.epoch', 2, 's'),
        { id: 'mine.per-image', scenario: 'mine', kind: 'ratio', value: 3, unit: 'images/s', ci: [2, 4] },
      ]);
      const specs = genericChartSpecs(record);
      expect(specs.map((c) => c.name)).toEqual(['ratios-images-s', 'times-ms', 'times-s']);
      const ms = specs.find((c) => c.name === 'times-ms')!.spec as { layer: Array<{ mark: { type: string }; encoding: { x: { scale?: { type?: string } } } }> };
      expect(ms.layer[0]!.mark.type).toBe('point');
      expect(ms.layer[0]!.encoding.x.scale?.type).toBe('log');
      // The article run: stage, sweep and training figures stay with their own charts; the rest are drawn generically.
      const article = reportTestRecord();
      const generic = genericChartSpecs(article).flatMap((c) => rowsOf(c.spec).map((r) => String(r.metric).split(' ')[0]));
      expect(generic).toContain('mnist-transfer.speedup');
      expect(generic).toContain('coco.speedup.batch');
      expect(generic).toContain('training.step-time-vs-resident.cpu-normalize');
      expect(generic.some((id) => /^sweep\.|\.stage-ms\./.test(id!))).toBe(false);
      for (const m of article.metrics.filter((x) => x.kind === 'ratio' || x.kind === 'time'))
        expect(generic.includes(m.id) !== drawnByBuiltIn(m), m.id).toBe(true);
      // A --shape question's stages and limits are the built-in charts'; its ratio is drawn generically.
      expect(chartSpecs(shapeTestRecord()).map((c) => c.name)).toEqual(['limits', 'stages', 'ratios']);
    });

    it('renders the generic charts to SVG: one point and one whisker per ratio, the rule at 1', async () => {
      const [ratios, times] = genericChartSpecs(userTestRecord());
      const svg = await renderSvg(ratios!.spec);
      expect((svg.match(/role="graphics-symbol" aria-roledescription="point"/g) ?? []).length).toBe(3);
      expect((svg.match(/class="mark-rule role-mark/g) ?? []).length).toBe(2);
      expect(svg).toContain('rgb-batches.speedup (device-uint8 vs host-float32)');
      expect(svg).toContain('CI below 1');
      expect(dataMarks(await renderSvg(times!.spec))).toBeGreaterThan(0);
    });
  });
});
