import type { AbResult } from '../results/ab-result.js';
import { type Direction, directionOf } from '../results/direction.js';
import { judgedDirection } from '../results/process-verdict.js';
import type { Metric } from '../results/schema.js';
import type { Exporter } from './exporter.js';

/**
 * Bencher Metric Format (`--bmf FILE`, `bencher run --adapter json --file FILE`): one benchmark
 * per metric id, each with its measures, `{ value, lower_value?, upper_value? }` (Bencher's
 * bmf.json, https://bencher.dev/docs/reference/bencher-metric-format/; a copy in
 * test/fixtures/schemas/). The testbed, not the name, carries the hardware profile (docs/ci.md).
 */
export type Bmf = Record<string, Record<string, BmfMetric>>;

/** One measure of one benchmark: the estimate and, where there is one, its interval. */
export interface BmfMetric {
  readonly value: number;
  readonly lower_value?: number;
  readonly upper_value?: number;
}

/** Bencher's limits (bencher-metric-format docs, "Order of Precedence"): a benchmark name up to 1024 characters, a measure slug up to 64. */
export const BMF_NAME_MAX = 1024;
export const BMF_MEASURE_MAX = 64;

/** Nanoseconds per unit of time: Bencher's built-in `latency` measure is in nanoseconds. */
const NANOSECONDS: Readonly<Record<string, number>> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9 };

/**
 * The Bencher measure of a unit and the factor into its units: times are `latency` (ns);
 * everything else a measure of its own, named by a slug of its unit (Bencher creates a measure
 * the first time a report names its slug): 'x' (a speedup) is `ratio`, 'B' is `bytes`, 'images/s'
 * is `images-per-second`, '' (a difference, a fraction) is `dimensionless`.
 */
export function bmfMeasure(unit: string): { readonly measure: string; readonly scale: number } {
  const ns = NANOSECONDS[unit];
  if (ns !== undefined) return { measure: 'latency', scale: ns };
  const named: Readonly<Record<string, string>> = { x: 'ratio', B: 'bytes', '': 'dimensionless' };
  const slug = (
    named[unit] ??
    unit
      .toLowerCase()
      .replace(/\/s$/, ' per second')
      .replace(/\//g, ' per ')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
  )
    .slice(0, BMF_MEASURE_MAX)
    .replace(/-+$/, '');
  return { measure: slug || 'dimensionless', scale: 1 };
}

/**
 * A value with its interval, scaled; the interval widened to hold the value (a geometric mean and
 * its bootstrap bounds may disagree by a few ulps, src/results/schema.ts CI_SLACK), so that
 * lower_value <= value <= upper_value holds as Bencher's thresholds read it.
 */
export function bmfMetric(value: number, scale: number, interval?: readonly [number, number]): BmfMetric {
  const v = value * scale;
  if (!interval) return { value: v };
  return { value: v, lower_value: Math.min(interval[0] * scale, v), upper_value: Math.max(interval[1] * scale, v) };
}

/**
 * The Bencher measure of a metric: one quantity in one direction and one unit, since Bencher sets
 * a threshold per measure (issue 40). Times are Bencher's `latency` (ns, smaller is better); a
 * ratio is `speedup` where bigger is better and `time-ratio` where smaller is (a step's time
 * over the resident step's); an exact count is `exact-` and its unit (`exact-bytes`: bytes on the
 * wire, equal or wrong); a difference bounded above is `max-abs-diff` or `max-rel-diff`, an
 * accuracy `accuracy`, a rate its unit ('images-per-second'); any other quality its unit and
 * direction ('bytes-smaller'). Null for information (host probes, the sync floor, computed
 * limits, references, unbounded losses and fractions): not exported (docs/ci.md).
 */
export function bmfMeasureOf(
  m: Pick<Metric, 'id' | 'kind' | 'unit' | 'direction' | 'labels' | 'bound'>,
): { readonly measure: string; readonly scale: number } | null {
  const direction: Direction = directionOf(m);
  if (direction === 'info') return null;
  const unit = bmfMeasure(m.unit);
  if (m.kind === 'time') return unit;
  if (m.kind === 'ratio') return { measure: direction === 'smaller' ? 'time-ratio' : 'speedup', scale: 1 };
  if (m.kind === 'exact') return { measure: `exact-${unit.measure === 'dimensionless' ? 'count' : unit.measure}`, scale: unit.scale };
  if (/(^|\.)max-abs-diff(\.|$)/.test(m.id)) return { measure: 'max-abs-diff', scale: 1 };
  if (/rel-diff|loss-gap/.test(m.id)) return { measure: 'max-rel-diff', scale: 1 };
  if (/accuracy/.test(m.id)) return { measure: 'accuracy', scale: 1 };
  if (m.unit.endsWith('/s')) return unit;
  return { measure: `${unit.measure}-${direction}`, scale: unit.scale };
}

/** The run's metrics worth a threshold (bmfMeasureOf): each its estimate and its 95% interval (`ci`) where it has one. */
export function recordBmf(metrics: readonly Metric[]): Bmf {
  return Object.fromEntries(
    metrics.flatMap((m) => {
      const measured = bmfMeasureOf(m);
      return measured ? [[m.id, { [measured.measure]: bmfMetric(m.value, measured.scale, m.ci) }]] : [];
    }),
  );
}

/** The measure an A/B's change is reported in: head / base, with the verdict's interval. */
export const AB_CHANGE_MEASURE = 'head-over-base';

/**
 * An A/B's verdicts: per metric the head arm's geometric mean (a time in `latency`, a ratio in
 * `speedup` or `time-ratio` by its direction; report/ab.ts shows times in ms) and head/base with
 * the permutation test's interval at the verdict's confidence (99% by default: src/results/process-verdict.ts).
 */
export function abBmf(result: AbResult): Bmf {
  return Object.fromEntries(
    result.verdicts.map((v) => {
      const { measure, scale } = v.kind === 'ratio' ? { measure: judgedDirection(v) === 'smaller' ? 'time-ratio' : 'speedup', scale: 1 } : bmfMeasure('ms');
      const change = bmfMetric(1 + v.change, 1, [1 + v.ci[0], 1 + v.ci[1]]);
      return [v.id, { [measure]: bmfMetric(v.head, scale), [AB_CHANGE_MEASURE]: change }];
    }),
  );
}

/**
 * What Bencher would refuse or misread in `bmf` beyond its JSON Schema: a value that is not
 * finite, an interval that does not hold its value, a name or measure slug over Bencher's length,
 * an empty name. Empty when it is sound.
 */
export function bmfProblems(bmf: Bmf): string[] {
  const problems: string[] = [];
  for (const [name, measures] of Object.entries(bmf)) {
    if (name.length === 0 || name.length > BMF_NAME_MAX)
      problems.push(`benchmark name of ${name.length} characters (1 to ${BMF_NAME_MAX}): ${name.slice(0, 80)}`);
    for (const [measure, m] of Object.entries(measures)) {
      const at = `${name} ${measure}`;
      if (measure.length === 0 || measure.length > BMF_MEASURE_MAX)
        problems.push(`${at}: measure slug of ${measure.length} characters (1 to ${BMF_MEASURE_MAX})`);
      const values = [m.value, m.lower_value, m.upper_value].filter((x): x is number => x !== undefined);
      if (!values.every(Number.isFinite)) problems.push(`${at}: a value that is not finite (${values.join(', ')})`);
      if (m.lower_value !== undefined && m.lower_value > m.value) problems.push(`${at}: lower_value ${m.lower_value} > value ${m.value}`);
      if (m.upper_value !== undefined && m.upper_value < m.value) problems.push(`${at}: upper_value ${m.upper_value} < value ${m.value}`);
    }
  }
  return problems;
}

/** BMF as written: two-space JSON, one line at the end; never a file Bencher would refuse or misread (bmfProblems). */
function text(bmf: Bmf): string {
  const problems = bmfProblems(bmf);
  if (problems.length > 0)
    throw new Error(`--bmf: not written, Bencher would refuse it: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`);
  return `${JSON.stringify(bmf, null, 2)}\n`;
}

const nothingOf = (bmf: Bmf, what: string) => (Object.keys(bmf).length > 0 ? null : `${what} has no metric worth a Bencher threshold`);

/** `--bmf FILE` on perf and compare (the run's metrics) and ab (the verdicts); not written where it would be empty. */
export const bmfExporter: Exporter = {
  format: 'bmf',
  render: ({ record }) => text(recordBmf(record.metrics)),
  renderAb: (result) => text(abBmf(result)),
  nothing: ({ record }) => nothingOf(recordBmf(record.metrics), 'this run'),
  nothingAb: (result) => nothingOf(abBmf(result), 'this A/B'),
};
