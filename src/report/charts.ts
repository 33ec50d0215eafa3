import sharp from 'sharp';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { Metric, RunRecord } from '../results/schema.js';
import { checkOutput, OutputPathError } from '../results/output-guard.js';
import { besideRecord, writeTextAtomic } from '../results/storage.js';
import { stageGroup } from './stage-table.js';

/** One chart of a run: a vega-lite spec and what it shows. */
export interface ChartSpec {
  /** File-name part: 'sweep-time' -> results/<run>.sweep-time.svg. */
  readonly name: string;
  readonly title: string;
  readonly spec: vl.TopLevelSpec;
}

/** A chart rendered to SVG in Node (no browser). */
export interface RenderedChart {
  readonly name: string;
  readonly title: string;
  readonly svg: string;
}

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';
const WIDTH = 420;
const HEIGHT = 260;
// One colour per strategy in every chart (Tableau 10, vega's default scheme).
const STRATEGY_COLOR: Readonly<Record<string, string>> = { 'cpu-normalize': '#4c78a8', 'device-normalize': '#f58518', resident: '#54a24b' };
const OTHER_COLORS = ['#e45756', '#72b7b2', '#b279a2', '#9d755d'];

/** A colour scale for the strategies present (so the legend lists only those), fixed colours for the known ones. */
function strategyScale(present: Iterable<string>): { domain: string[]; range: string[] } {
  const domain = [...new Set(present)].sort();
  let other = 0;
  return { domain, range: domain.map((d) => STRATEGY_COLOR[d] ?? OTHER_COLORS[other++ % OTHER_COLORS.length]!) };
}
const CONFIG: vl.Config = {
  font: 'sans-serif',
  view: { stroke: '#ddd' },
  axis: { labelFontSize: 11, titleFontSize: 12 },
  legend: { orient: 'bottom', symbolOpacity: 1 },
};

/** Spec parts, named from vega-lite's own top-level type (its deep modules are not a public entry point). */
type UnitSpec = Extract<vl.TopLevelSpec, { mark: unknown }>;
type XDef = NonNullable<NonNullable<UnitSpec['encoding']>['x']>;
type ConcatPanels = Extract<vl.TopLevelSpec, { hconcat: unknown }>['hconcat'];

const labelled = (record: RunRecord, table: string, quantity: string): Metric[] =>
  record.metrics.filter((m) => m.labels?.table === table && m.labels.quantity === quantity);

/** The batch sizes of the sweep as a log2 axis with a tick at each measured size. */
function batchAxis(batches: number[]): XDef {
  return {
    field: 'batch',
    type: 'quantitative',
    title: 'batch size (images, log2 scale)',
    scale: { type: 'log', base: 2, domain: [Math.min(...batches), Math.max(...batches)], nice: false },
    axis: { values: batches, format: 'd' },
  };
}

/** Section 12: time per batch against batch size, both strategies, with the 95% CI of each median as a band. */
function sweepTimeChart(record: RunRecord): ChartSpec | null {
  const rows = labelled(record, 'sweep', 'time').map((m) => ({
    batch: Number(m.labels!.batch),
    strategy: m.labels!.strategy,
    ms: m.value,
    lo: m.ci?.[0] ?? m.value,
    hi: m.ci?.[1] ?? m.value,
  }));
  if (rows.length === 0) return null;
  const x = batchAxis([...new Set(rows.map((r) => r.batch))].sort((a, b) => a - b));
  const color = { field: 'strategy', type: 'nominal', title: 'strategy', scale: strategyScale(rows.map((r) => r.strategy!)) } as const;
  return {
    name: 'sweep-time',
    title: 'Time per batch against batch size (section 12)',
    spec: {
      $schema: SCHEMA,
      config: CONFIG,
      width: WIDTH,
      height: HEIGHT,
      data: { values: rows },
      encoding: { x, color },
      layer: [
        { mark: { type: 'area', opacity: 0.2 }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
        {
          mark: { type: 'line', point: true },
          encoding: { y: { field: 'ms', type: 'quantitative', title: 'time per batch (ms, median, 95% CI)', scale: { type: 'log', base: 2 } } },
        },
      ],
    },
  };
}

/** Section 12: speedup of device-normalize over cpu-normalize against batch size, CI band, a rule at 1. */
function sweepSpeedupChart(record: RunRecord): ChartSpec | null {
  const rows = labelled(record, 'sweep', 'speedup').map((m) => ({
    batch: Number(m.labels!.batch),
    speedup: m.value,
    lo: m.ci?.[0] ?? m.value,
    hi: m.ci?.[1] ?? m.value,
  }));
  if (rows.length === 0) return null;
  const x = batchAxis([...new Set(rows.map((r) => r.batch))].sort((a, b) => a - b));
  const first = labelled(record, 'sweep', 'speedup')[0]!.labels!;
  return {
    name: 'sweep-speedup',
    title: `Speedup of ${first.b ?? 'b'} over ${first.a ?? 'a'}, time(${first.a ?? 'a'}) / time(${first.b ?? 'b'}), against batch size (section 12); above 1: ${first.b ?? 'b'} is faster`,
    spec: {
      $schema: SCHEMA,
      config: CONFIG,
      width: WIDTH,
      height: HEIGHT,
      layer: [
        {
          data: { values: rows },
          encoding: { x },
          layer: [
            { mark: { type: 'area', opacity: 0.25, color: '#f58518' }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
            {
              mark: { type: 'line', point: { color: '#f58518' }, color: '#f58518' },
              encoding: { y: { field: 'speedup', type: 'quantitative', title: 'speedup (median, 95% CI)', scale: { zero: false } } },
            },
          ],
        },
        { data: { values: [{ one: 1 }] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#666' }, encoding: { y: { field: 'one', type: 'quantitative' } } },
      ],
    },
  };
}

/** Section 10: training loss by step (per strategy; equal losses overlap) and held-out accuracy by epoch. */
function trainingCurvesChart(record: RunRecord): ChartSpec | null {
  const loss = labelled(record, 'training-curve', 'loss').map((m) => ({ step: Number(m.labels!.step), strategy: m.labels!.strategy, loss: m.value }));
  const accuracy = labelled(record, 'training', 'held-out-accuracy')
    .filter((m) => m.labels!.epoch !== undefined)
    .map((m) => ({ epoch: Number(m.labels!.epoch), accuracy: m.value }));
  if (loss.length === 0 && accuracy.length === 0) return null;
  const panels: ConcatPanels = [];
  if (loss.length > 0) {
    panels.push({
      title: 'training loss (mean over windows of steps)',
      width: WIDTH,
      height: HEIGHT,
      data: { values: loss },
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'step', type: 'quantitative', title: 'step' },
        y: { field: 'loss', type: 'quantitative', title: 'cross-entropy', scale: { zero: false } },
        color: { field: 'strategy', type: 'nominal', scale: strategyScale(loss.map((l) => l.strategy!)) },
        // Equal losses draw on top of each other: dashes keep both lines visible.
        strokeDash: { field: 'strategy', type: 'nominal', legend: null },
      },
    });
  }
  if (accuracy.length > 0) {
    panels.push({
      title: 'held-out accuracy after each epoch',
      width: accuracy.length > 1 ? WIDTH / 1.5 : 120,
      height: HEIGHT,
      data: { values: accuracy },
      mark: { type: 'line', point: { size: 60, color: '#54a24b' }, color: '#54a24b' },
      encoding: {
        x: { field: 'epoch', type: 'ordinal', title: 'epoch', axis: { labelAngle: 0 } },
        y: { field: 'accuracy', type: 'quantitative', title: 'accuracy', scale: { domain: [0, 1] }, axis: { format: '%' } },
      },
    });
  }
  return {
    name: 'training-curves',
    title: 'Training curves (section 10)',
    spec: { $schema: SCHEMA, config: CONFIG, hconcat: panels },
  };
}

/** Section 10: each epoch's wall time per run: the two strategies and the batches-resident reference. */
function trainingEpochTimeChart(record: RunRecord): ChartSpec | null {
  const rows = labelled(record, 'training', 'time').map((m) => ({ epoch: m.labels!.epoch, run: m.labels!.strategy, seconds: m.value / 1000 }));
  if (rows.length === 0) return null;
  return {
    name: 'training-epoch-time',
    title: 'Epoch time fed by each strategy and with every batch resident (section 10)',
    spec: {
      $schema: SCHEMA,
      config: CONFIG,
      width: { step: 90 },
      height: HEIGHT,
      data: { values: rows },
      mark: 'bar',
      encoding: {
        x: { field: 'epoch', type: 'ordinal', title: 'epoch', axis: { labelAngle: 0 } },
        xOffset: { field: 'run', type: 'nominal' },
        y: { field: 'seconds', type: 'quantitative', title: 'epoch wall time (s)' },
        color: { field: 'run', type: 'nominal', title: 'input', scale: strategyScale(rows.map((r) => r.run!)) },
      },
    },
  };
}

const STACKED_STAGES = ['host', 'upload', 'compute', 'input', 'train'] as const;

/**
 * Where the time goes (issue 13): per stage group and strategy, the host, upload and compute stage
 * medians stacked (each synced on its own, so their sum exceeds the pipelined total by about one
 * sync floor per stage), from metrics labelled { table: 'stages' }.
 */
function stagesChart(record: RunRecord): ChartSpec | null {
  const rows = record.metrics
    .filter((m) => m.labels?.table === 'stages' && STACKED_STAGES.includes(m.labels.stage as (typeof STACKED_STAGES)[number]))
    .map((m) => ({
      scenario: stageGroup(m),
      strategy: m.labels!.strategy!,
      stage: m.labels!.stage!,
      ms: m.value,
      order: STACKED_STAGES.indexOf(m.labels!.stage as (typeof STACKED_STAGES)[number]),
    }));
  if (rows.length === 0) return null;
  const groups = [...new Set(rows.map((r) => r.scenario))];
  return {
    name: 'stages',
    title: 'Where the time goes: stage medians per strategy (each stage synced)',
    spec: {
      $schema: SCHEMA,
      config: CONFIG,
      data: { values: rows },
      // Groups in record order (sweep.b32 before sweep.b128), not alphabetical.
      facet: { row: { field: 'scenario', type: 'nominal', title: null, sort: groups } },
      resolve: { scale: { x: 'independent' } },
      spec: {
        width: WIDTH,
        height: 60,
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'strategy', type: 'nominal', title: null },
          x: { field: 'ms', type: 'quantitative', stack: 'zero', title: 'ms per batch' },
          color: { field: 'stage', type: 'nominal', title: 'stage', sort: [...STACKED_STAGES] },
          order: { field: 'order', type: 'quantitative' },
        },
      },
    },
  };
}

/** The charts a run record has data for, in report order. */
export function chartSpecs(record: RunRecord): ChartSpec[] {
  return [stagesChart(record), sweepTimeChart(record), sweepSpeedupChart(record), trainingCurvesChart(record), trainingEpochTimeChart(record)].filter(
    (c): c is ChartSpec => c !== null,
  );
}

/** A vega-lite spec as SVG, rendered in Node by vega's headless view (no browser, no canvas). */
export async function renderSvg(spec: vl.TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Every chart of a run, as SVG. */
export async function renderCharts(record: RunRecord): Promise<RenderedChart[]> {
  return Promise.all(chartSpecs(record).map(async (c) => ({ name: c.name, title: c.title, svg: await renderSvg(c.spec) })));
}

/** Where a chart of the run record at `recordPath` goes: results/<run>.<name>.<ext>. */
export function chartPath(recordPath: string, name: string, ext: 'svg' | 'png'): string {
  return besideRecord(recordPath, `.${name}.${ext}`);
}

/**
 * Writes every chart of the run as SVG and PNG (sharp rasterizes the SVG at 2x) next to its
 * record. A chart path that holds a file of another kind is left alone and listed in `skipped`.
 */
export async function writeCharts(record: RunRecord, recordPath: string): Promise<{ written: string[]; skipped: string[] }> {
  const written: string[] = [];
  const skipped: string[] = [];
  const mayWrite = (path: string) =>
    checkOutput({ path, kind: 'chart', flag: 'the chart' }, { force: false }).then(
      () => true,
      (error: unknown) => {
        if (!(error instanceof OutputPathError)) throw error;
        skipped.push(path);
        return false;
      },
    );
  for (const chart of await renderCharts(record)) {
    const svgPath = chartPath(recordPath, chart.name, 'svg');
    if (await mayWrite(svgPath)) {
      await writeTextAtomic(svgPath, chart.svg);
      written.push(svgPath);
    }
    const pngPath = chartPath(recordPath, chart.name, 'png');
    if (await mayWrite(pngPath)) {
      // Through a temp file and a rename, as every other output, so no half-written PNG is left.
      const png = await sharp(Buffer.from(chart.svg), { density: 144 }).png().toBuffer();
      await writeTextAtomic(pngPath, png);
      written.push(pngPath);
    }
  }
  return { written, skipped };
}
