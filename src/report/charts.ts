import type * as vl from 'vega-lite';
import { CHARTS_MISSING, chartLibraries } from './chart-libraries.js';
import type { Metric, RunRecord } from '../results/schema.js';
import { checkOutput, OutputPathError } from '../results/output-guard.js';
import { besideRecord, type FileToWrite, writeFilesAtomic } from '../results/storage.js';
import { ciDirection } from './format.js';
import { ensureFontconfig } from './fontconfig.js';
import { limitRows, stageGroup, stageMetrics } from './stage-table.js';

export { type LimitRow, limitRows } from './stage-table.js';

/** One chart of a run: a vega-lite spec and what it shows. */
export interface ChartSpec {
  /** File-name part: 'sweep-time' -> results/<run>.sweep-time.svg. */
  readonly name: string;
  readonly title: string;
  /** One line under the title: what was measured and with which clock (from the metrics' details). */
  readonly caption: string;
  readonly spec: vl.TopLevelSpec;
}

/** A chart rendered to SVG in Node (no browser). */
export type RenderedChart = Omit<ChartSpec, 'spec'> & { readonly svg: string };

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';
const WIDTH = 420;
const HEIGHT = 260;
// One colour per strategy in every chart (Tableau 10, vega's default scheme): the same strategy keeps its colour from chart to chart.
const STRATEGY_COLOR: Readonly<Record<string, string>> = {
  'cpu-normalize': '#4c78a8',
  'device-normalize': '#f58518',
  resident: '#54a24b',
  'naive-tfjs': '#e45756',
  uint8: '#72b7b2',
  int8: '#eeca3b',
  float16: '#b279a2',
  float32: '#9d755d',
};
const OTHER_COLORS = ['#ff9da6', '#bab0ac', '#79706e', '#d67195'];

/** The strategies present, the known ones in their fixed order (the article's two first), then the others as found. */
function strategyOrder(present: Iterable<string>): string[] {
  const found = new Set(present);
  return [...Object.keys(STRATEGY_COLOR).filter((s) => found.has(s)), ...[...found].filter((s) => !(s in STRATEGY_COLOR))];
}

/** A colour scale for the strategies present (so the legend lists only those), fixed colours for the known ones. */
function strategyScale(present: Iterable<string>): { domain: string[]; range: string[] } {
  const domain = strategyOrder(present);
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
type Layers = Extract<vl.TopLevelSpec, { layer: unknown }>['layer'];
type YDef = NonNullable<NonNullable<UnitSpec['encoding']>['y']>;
type ColorDef = NonNullable<NonNullable<UnitSpec['encoding']>['color']>;

const labelled = (record: RunRecord, table: string, quantity: string): Metric[] =>
  record.metrics.filter((m) => m.labels?.table === table && m.labels.quantity === quantity);

/**
 * The clock a metric was timed with, in its own detail's words: the first clause (details are
 * '; '-separated) that names a clock or timestamp queries, with the clause after it when that
 * says where a step ends; 'computed' for a figure computed from measured ones; null when the
 * detail names none (losses, accuracy: no clock).
 */
export function clockOf(m: Pick<Metric, 'detail'>): string | null {
  const parts = (m.detail ?? '').split(/;\s*/);
  const at = parts.findIndex((p) => /\bhost (monotonic )?clock\b|\btimestamp|^computed\b/i.test(p));
  if (at < 0) return null;
  // A note appended in brackets (a re-measurement) is not part of the clock.
  const clause = parts[at]!.replace(/\s*\[.*$/, '');
  if (/^computed\b/i.test(clause)) return 'computed from measured figures';
  const next = parts[at + 1];
  return (next && /^each step ends/.test(next) ? `${clause}, ${next}` : clause).replace(/^measured, /, '');
}

/** 'clock: X' for one clock, 'clocks: a: X; b: Y' for several (clocksBy's words). */
const clockWords = (clocks: string) => (/: /.test(clocks) ? `clocks: ${clocks}` : `clock: ${clocks}`);

/** A clock as a caption says it: 'performance.now after a device sync' for the details' longer words. */
function shortClock(clock: string): string {
  return clock
    .replace(/host monotonic clock \(performance\.now\)/, 'performance.now')
    .replace(/, stopped after a device sync/, ' after a device sync')
    .replace(/, each step ends when its loss was read back from the device/, " until the step's loss is read back")
    .replace(/^host clock, no device work$/, 'host clock');
}

/**
 * Which clock timed which figures, for a caption: the clock of most figures, and in brackets
 * the keys timed otherwise ('performance.now after a device sync (training: host clock)');
 * `key` names a figure's part (its stage, its scenario). With no clock the most common, every
 * clock with its keys.
 */
export function clocksBy(metrics: readonly Metric[], key: (m: Metric) => string): string {
  const byClock = new Map<string, Set<string>>();
  for (const m of metrics) {
    const clock = shortClock(clockOf(m) ?? 'no clock named');
    byClock.set(clock, (byClock.get(clock) ?? new Set()).add(key(m)));
  }
  const ranked = [...byClock].sort((x, y) => y[1].size - x[1].size);
  if (ranked.length === 0) return 'no clock named';
  const listed = ([clock, keys]: [string, Set<string>]) => `${[...keys].join(', ')}: ${clock}`;
  if (ranked.length === 1) return ranked[0]![0];
  if (ranked[0]![1].size > ranked[1]![1].size) return `${ranked[0]![0]} (${ranked.slice(1).map(listed).join('; ')})`;
  return ranked.map(listed).join('; ');
}

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
  const metrics = labelled(record, 'sweep', 'time');
  const rows = metrics.map((m) => ({
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
    caption: `Median time per batch of each strategy at each batch size, 95% CI of the median as a band, interleaved pairs; ${clockWords(clocksBy(metrics, (m) => m.labels!.strategy!))}.`,
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
  const metrics = labelled(record, 'sweep', 'speedup');
  const rows = metrics.map((m) => ({
    batch: Number(m.labels!.batch),
    speedup: m.value,
    lo: m.ci?.[0] ?? m.value,
    hi: m.ci?.[1] ?? m.value,
  }));
  if (rows.length === 0) return null;
  const x = batchAxis([...new Set(rows.map((r) => r.batch))].sort((a, b) => a - b));
  const first = metrics[0]!.labels!;
  return {
    name: 'sweep-speedup',
    title: `Speedup of ${first.b ?? 'b'} over ${first.a ?? 'a'} against batch size (section 12)`,
    caption: `Median over interleaved pairs of time(${first.a ?? 'a'}) / time(${first.b ?? 'b'}), 95% CI band, in this process; above the dashed 1: ${first.b ?? 'b'} is faster; ${clockWords(clocksBy(metrics, (m) => `batch ${m.labels!.batch}`))}.`,
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
    caption:
      'Mean training cross-entropy over windows of steps per strategy (equal losses overlap: dashed), and held-out accuracy after each epoch; values, not times: no clock.',
    spec: { $schema: SCHEMA, config: CONFIG, hconcat: panels },
  };
}

/** Section 10: each epoch's wall time per run: the two strategies and the batches-resident reference. */
function trainingEpochTimeChart(record: RunRecord): ChartSpec | null {
  const metrics = labelled(record, 'training', 'time');
  const rows = metrics.map((m) => ({ epoch: m.labels!.epoch, run: m.labels!.strategy, seconds: m.value / 1000 }));
  if (rows.length === 0) return null;
  return {
    name: 'training-epoch-time',
    title: 'Epoch time fed by each strategy and with every batch resident (section 10)',
    caption: `Sum of each epoch's step times per run, the runs' steps interleaved one by one; ${clockWords(clocksBy(metrics, (m) => m.labels!.strategy!))}.`,
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
type StackedStage = (typeof STACKED_STAGES)[number];
// One colour per stage, distinct from the strategy colours' order so a stage is never read as a strategy.
const STAGE_COLOR: Readonly<Record<StackedStage, string>> = { host: '#e45756', upload: '#4c78a8', compute: '#f58518', input: '#72b7b2', train: '#54a24b' };
const isStacked = (stage: string | undefined): stage is StackedStage => STACKED_STAGES.includes(stage as StackedStage);

/**
 * Where the time goes (issue 13): per stage group and strategy, the host, upload and compute stage
 * medians stacked (each synced on its own, so their sum exceeds the pipelined total by about one
 * sync floor per stage), from metrics labelled { table: 'stages' }. One panel per group, two
 * columns, each with its own axes: only that group's strategies, its own time scale.
 */
function stagesChart(record: RunRecord): ChartSpec | null {
  const metrics = stageMetrics(record, isStacked);
  const rows = metrics.map((m) => ({
    group: stageGroup(m),
    strategy: m.labels!.strategy!,
    stage: m.labels!.stage!,
    ms: m.value,
    order: STACKED_STAGES.indexOf(m.labels!.stage as StackedStage),
  }));
  if (rows.length === 0) return null;
  const groups = [...new Set(rows.map((r) => r.group))];
  const stages = STACKED_STAGES.filter((s) => rows.some((r) => r.stage === s));
  return {
    name: 'stages',
    title: 'Where the time goes: stage medians per strategy (each stage synced)',
    caption: `Median ms per batch (training: per step) of each stage, stacked; synced stages each hold one sync floor, so the bar exceeds the pipelined total; ${clockWords(clocksBy(metrics, (m) => m.labels!.stage!))}.`,
    spec: {
      $schema: SCHEMA,
      config: { ...CONFIG, facet: { spacing: 18 }, header: { labelFontSize: 12, labelFontWeight: 'bold', labelAnchor: 'start', labelPadding: 4 } },
      data: { values: rows },
      // Groups in record order (sweep.b32 before sweep.b128), not alphabetical; titles above each panel, never rotated.
      facet: { field: 'group', type: 'nominal', title: null, sort: groups, header: { labelOrient: 'top', labelAngle: 0, labelLimit: 0 } },
      columns: 2,
      resolve: { scale: { x: 'independent', y: 'independent' }, axis: { x: 'independent', y: 'independent' } },
      spec: {
        width: WIDTH,
        height: { step: 16 },
        mark: { type: 'bar' },
        encoding: {
          // Strategies in one order everywhere (the article's two first); every panel's labels in one fixed width
          // so the panels of a column line up; labels never cut.
          y: { field: 'strategy', type: 'nominal', title: null, sort: strategyOrder(rows.map((r) => r.strategy)), axis: { labelLimit: 0, minExtent: 150 } },
          x: { field: 'ms', type: 'quantitative', stack: 'zero', title: 'ms' },
          color: { field: 'stage', type: 'nominal', title: 'stage', scale: { domain: stages, range: stages.map((s) => STAGE_COLOR[s]) } },
          order: { field: 'order', type: 'quantitative' },
        },
      },
    },
  };
}

/**
 * How far each strategy is from the device's limit: its pipelined `total` over its `limit`, one
 * dot per strategy, one row per group, log scale, a dashed rule at 1 (at the limit).
 */
function limitsChart(record: RunRecord): ChartSpec | null {
  const found = limitRows(record);
  if (found.length === 0) return null;
  const rows = found.map(({ group, strategy, times }) => ({ group, strategy, times }));
  const groups = [...new Set(rows.map((r) => r.group))];
  const scenario = (m: Metric) => stageGroup(m).split('.')[0]!;
  const colors = strategyScale(rows.map((r) => r.strategy));
  const lo = Math.min(1, ...rows.map((r) => r.times));
  const hi = Math.max(2, ...rows.map((r) => r.times));
  return {
    name: 'limits',
    title: "How far each strategy is from the device's limit",
    caption: `Total / limit per strategy, 1 = at the limit. Total: its stages with no sync between, clock ${clocksBy(
      found.map((r) => r.total),
      scenario,
    )}. Limit: ${clocksBy(
      found.map((r) => r.limit),
      scenario,
    )}: the sync floor + its bytes at this device's measured writeBuffer and shader-copy bandwidths; in training, the same step with its batch resident.`,
    spec: {
      $schema: SCHEMA,
      config: CONFIG,
      width: 360,
      height: { step: 14 },
      layer: [
        {
          data: { values: [{ one: 1 }] },
          mark: { type: 'rule', strokeDash: [4, 4], color: '#666' },
          encoding: { x: { field: 'one', type: 'quantitative' } },
        },
        {
          data: { values: rows },
          mark: { type: 'point', filled: true, size: 60, opacity: 0.85 },
          encoding: {
            y: { field: 'group', type: 'nominal', title: null, sort: groups, axis: { labelLimit: 0 } },
            x: {
              field: 'times',
              type: 'quantitative',
              title: 'total / limit (log scale; 1 = at the limit)',
              scale: { type: 'log', domain: [lo / 1.1, hi * 1.1], nice: false },
            },
            // Colour and shape over the same domain: one legend, beside the rows.
            color: { field: 'strategy', type: 'nominal', title: 'strategy', scale: colors, legend: { orient: 'right' } },
            shape: { field: 'strategy', type: 'nominal', title: 'strategy', scale: { domain: colors.domain }, legend: { orient: 'right' } },
          },
        },
      ],
    },
  };
}

/**
 * Whether a built-in chart (or the stage table beside it) already shows a metric: stage figures
 * (the stage and limit charts), the sweep's times and speedups, the training curves and epoch
 * times. The generic charts draw every other ratio and time.
 */
export function drawnByBuiltIn(m: Metric): boolean {
  const { table, quantity } = m.labels ?? {};
  if (table === 'stages') return true;
  if (table === 'sweep') return quantity === 'time' || quantity === 'speedup';
  if (table === 'training') return quantity === 'time' || quantity === 'held-out-accuracy';
  return table === 'training-curve' && quantity === 'loss';
}

/** A unit as part of a chart's name (a file name): 'ms' -> 'ms', 'images/s' -> 'images-s'. */
const unitSlug = (unit: string) => unit.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'none';

/** The metrics of one kind the generic charts draw, by unit, units in record order. */
function byUnit(record: RunRecord, kind: Metric['kind']): Map<string, Metric[]> {
  const units = new Map<string, Metric[]>();
  for (const m of record.metrics) {
    if (m.kind !== kind || drawnByBuiltIn(m) || !Number.isFinite(m.value)) continue;
    units.set(m.unit, [...(units.get(m.unit) ?? []), m]);
  }
  return units;
}

/** A log scale when every value (and CI end) is positive and they span more than `spread` times, else null. */
function logDomain(values: readonly number[], spread: number): [number, number] | null {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo > 0 && hi / lo > spread ? [lo / 1.15, hi * 1.15] : null;
}

/** What a ratio's CI says against 1, as the chart's colour legend says it. */
const CI_WORDS = { faster: 'CI above 1', slower: 'CI below 1', unclear: 'CI includes 1', none: 'no CI' } as const;
const CI_COLOR = { faster: '#18794e', slower: '#c62828', unclear: '#a15c00', none: '#79706e' } as const;
const ciSays = (m: Metric): keyof typeof CI_WORDS => (m.ci ? ciDirection(m) : 'none');

/** One row of a generic chart: a metric's name, its value and its CI's ends (the value where it has none). */
const metricRow = (m: Metric, metric: string) => ({ metric, value: m.value, lo: m.ci?.[0] ?? m.value, hi: m.ci?.[1] ?? m.value });

/** A generic chart: one row per metric in record order (labels never cut), its layers over them. */
function perMetricSpec(names: readonly string[], layers: (y: YDef) => Layers): vl.TopLevelSpec {
  const y: YDef = { field: 'metric', type: 'nominal', title: null, sort: [...names], axis: { labelLimit: 0 } };
  return { $schema: SCHEMA, config: CONFIG, width: 360, height: { step: 18 }, layer: layers(y) };
}

/** A metric's row name on a generic chart: its id, and for a paired ratio which strategy it compares with which. */
const rowName = (m: Metric) => (m.kind === 'ratio' && m.labels?.a && m.labels.b ? `${m.id} (${m.labels.b} vs ${m.labels.a})` : m.id);

/**
 * Every ratio no built-in chart draws, one chart per unit: each ratio a point, its 95% CI a
 * whisker, coloured by what the CI says against 1, a dashed rule at 1; one row per metric in
 * record order; a log scale (ratios are multiplicative) when the values allow one.
 */
function genericRatioCharts(record: RunRecord): ChartSpec[] {
  return [...byUnit(record, 'ratio')].map(([unit, metrics]) => {
    const rows = metrics.map((m) => ({ ...metricRow(m, rowName(m)), says: CI_WORDS[ciSays(m)] }));
    const log = logDomain([1, ...rows.flatMap((r) => [r.lo, r.hi])], 0);
    const says = (Object.keys(CI_WORDS) as Array<keyof typeof CI_WORDS>).filter((k) => rows.some((r) => r.says === CI_WORDS[k]));
    const axisTitle = `ratio (${unit || 'no unit'}; median, 95% CI${log ? ', log scale' : ''}; 1 = no difference)`;
    const scale = log ? { type: 'log' as const, domain: log, nice: false } : { zero: false };
    const x = (field: string): XDef => ({ field, type: 'quantitative', title: axisTitle, scale });
    const color: ColorDef = {
      field: 'says',
      type: 'nominal',
      title: 'what the CI says',
      legend: { labelLimit: 0 },
      scale: { domain: says.map((k) => CI_WORDS[k]), range: says.map((k) => CI_COLOR[k]) },
    };
    const layers = (y: YDef): Layers => [
      { data: { values: [{ one: 1 }] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#666' }, encoding: { x: { field: 'one', type: 'quantitative' } } },
      { data: { values: rows }, mark: { type: 'rule', strokeWidth: 2 }, encoding: { y, x: x('lo'), x2: { field: 'hi' }, color } },
      { data: { values: rows }, mark: { type: 'point', filled: true, size: 60, opacity: 1 }, encoding: { y, x: x('value'), color } },
    ];
    const where = metrics.every((m) => (m.processes?.length ?? 0) >= 2) ? 'across processes' : 'in the process that measured it';
    return {
      name: unit === 'x' ? 'ratios' : `ratios-${unitSlug(unit)}`,
      title: `Every ratio of the run with its 95% CI${unit === 'x' ? '' : ` (${unit})`}`,
      caption: `Each ratio (a paired one: median of time(a)/time(b), so above the dashed 1 b is faster) with its 95% CI as a whisker, ${where}; colour: what the CI says against 1; ${clockWords(
        clocksBy(metrics, (m) => m.scenario),
      )}.`,
      spec: perMetricSpec(
        rows.map((r) => r.metric),
        layers,
      ),
    };
  });
}

/**
 * Every time no built-in chart draws, one chart per unit: one bar per metric from zero (its 95%
 * CI as a whisker when it has one), or, when the times span more than 20x, one point per metric
 * on a log scale; coloured by strategy (or wire type, else scenario), one row per metric in
 * record order.
 */
function genericTimeCharts(record: RunRecord): ChartSpec[] {
  return [...byUnit(record, 'time')].map(([unit, metrics]) => {
    const rows = metrics.map((m) => ({ ...metricRow(m, m.id), series: m.labels?.strategy ?? m.labels?.dtype ?? m.scenario }));
    const log = logDomain(
      rows.flatMap((r) => [r.lo, r.hi]),
      20,
    );
    const title = `time (${unit}${metrics.some((m) => m.ci) ? ', 95% CI where measured' : ''}${log ? ', log scale' : ''})`;
    const x = (field: string): XDef => ({ field, type: 'quantitative', title, ...(log ? { scale: { type: 'log' as const, domain: log, nice: false } } : {}) });
    const color: ColorDef = { field: 'series', type: 'nominal', title: 'strategy', scale: strategyScale(rows.map((r) => r.series)) };
    const data = { values: rows };
    const layers = (y: YDef): Layers => [
      log
        ? { data, mark: { type: 'point', filled: true, size: 60, opacity: 1 }, encoding: { y, x: x('value'), color } }
        : { data, mark: { type: 'bar', height: { band: 0.7 } }, encoding: { y, x: x('value'), color } },
      ...(rows.some((r) => r.lo !== r.hi) ? [{ data, mark: { type: 'rule' as const, color: '#333' }, encoding: { y, x: x('lo'), x2: { field: 'hi' } } }] : []),
    ];
    return {
      name: `times-${unitSlug(unit)}`,
      title: `Times of the run (${unit})`,
      caption: `Every time figure no other chart draws, as recorded (a median unless its detail says otherwise)${log ? ', on a log scale: they span more than 20x' : ''}; ${clockWords(
        clocksBy(metrics, (m) => m.scenario),
      )}.`,
      spec: perMetricSpec(
        rows.map((r) => r.metric),
        layers,
      ),
    };
  });
}

/** The charts of the metrics no built-in chart draws, from their kind and unit: every ratio with its CI, every time. */
export function genericChartSpecs(record: RunRecord): ChartSpec[] {
  return [...genericRatioCharts(record), ...genericTimeCharts(record)];
}

/** The charts a run record has data for, in report order. */
export function chartSpecs(record: RunRecord): ChartSpec[] {
  return [
    limitsChart(record),
    stagesChart(record),
    sweepTimeChart(record),
    sweepSpeedupChart(record),
    trainingCurvesChart(record),
    trainingEpochTimeChart(record),
  ]
    .filter((c): c is ChartSpec => c !== null)
    .concat(genericChartSpecs(record));
}

/** vega or vega-lite is not installed (optional peers): the message says what to install. */
export class ChartsUnavailableError extends Error {
  override readonly name = 'ChartsUnavailableError';
  constructor() {
    super(CHARTS_MISSING);
  }
}

/** A vega-lite spec as SVG, rendered in Node by vega's headless view (no browser, no canvas); ChartsUnavailableError without vega. */
export async function renderSvg(spec: vl.TopLevelSpec): Promise<string> {
  const libraries = await chartLibraries();
  if (!libraries) throw new ChartsUnavailableError();
  const { vega, vl: lite } = libraries;
  const view = new vega.View(vega.parse(lite.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Every chart of a run, as SVG; none when vega is not installed (chartLibraries says so). */
export async function renderCharts(record: RunRecord): Promise<RenderedChart[]> {
  if (!(await chartLibraries())) return [];
  return Promise.all(chartSpecs(record).map(async ({ spec, ...chart }) => ({ ...chart, svg: await renderSvg(spec) })));
}

/** Where a chart of the run record at `recordPath` goes: results/<run>.<name>.<ext>. */
export function chartPath(recordPath: string, name: string, ext: 'svg' | 'png'): string {
  return besideRecord(recordPath, `.${name}.${ext}`);
}

/**
 * Writes every chart of the run as SVG and PNG (sharp rasterizes the SVG at 2x) next to its
 * record. A chart path that holds a file of another kind is left alone and listed in `skipped`.
 */
export async function writeCharts(record: RunRecord, recordPath: string): Promise<{ written: string[]; skipped: string[]; unavailable: string | null }> {
  if (!(await chartLibraries())) return { written: [], skipped: [], unavailable: CHARTS_MISSING };
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
  const files: FileToWrite[] = [];
  for (const chart of await renderCharts(record)) {
    const svgPath = chartPath(recordPath, chart.name, 'svg');
    if (await mayWrite(svgPath)) files.push({ path: svgPath, text: chart.svg });
    const pngPath = chartPath(recordPath, chart.name, 'png');
    if (await mayWrite(pngPath)) {
      // A machine with no fontconfig config would print "Fontconfig error" lines as librsvg draws the text.
      ensureFontconfig();
      const { default: sharp } = await import('sharp');
      files.push({ path: pngPath, text: await sharp(Buffer.from(chart.svg), { density: 144 }).png().toBuffer() });
    }
  }
  // Through temp files and renames, durably, as every other output (no half-written or, after a power cut, empty chart);
  // all at once, so the fsyncs of a dozen files cost about one.
  await writeFilesAtomic(files);
  written.push(...files.map((f) => f.path));
  return { written, skipped, unavailable: null };
}
