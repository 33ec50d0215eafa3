import type { AbResult } from '../results/ab-result.js';
import { directionOf } from '../results/direction.js';
import { judgedDirection } from '../results/process-verdict.js';
import type { Metric, RunRecord } from '../results/schema.js';
import type { Exporter } from './exporter.js';
import { significant } from './format.js';

/**
 * github-action-benchmark's custom JSON (`--gab-bigger FILE`, `--gab-smaller FILE`, for its
 * `customBiggerIsBetter` and `customSmallerIsBetter` tools): an array of its BenchmarkResult,
 * `{ name, value, unit, range?, extra? }` (benchmark-action/github-action-benchmark src/extract.ts).
 * For charts: its alert compares a point with the one before it (at 2x by default); the
 * harness's own verdicts are the gate (docs/ci.md).
 */
export interface GabBenchmark {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly range?: string;
  readonly extra?: string;
}

/** Which of the action's two tools a figure belongs to. */
export type GabDirection = 'bigger' | 'smaller';

/**
 * The file a metric is charted in: its direction (results/direction.ts: a speedup bigger, a
 * step-time ratio or a time smaller, a rate bigger), for ratios, times and rates the run measured.
 * Left out (null): exact metrics (checked for equality), bounded qualities (a bound, not a trend),
 * information (the host-state probe, the sync floor, computed limits, references: the machine,
 * not the code), and a value of 0 (a stage that runs no kernel): the action's alert divides by
 * the previous value, so a 0 has no ratio to alert on. docs/ci.md, "What the exports hold".
 */
export function gabDirection(m: Pick<Metric, 'id' | 'kind' | 'unit' | 'value' | 'direction' | 'labels' | 'bound'>): GabDirection | null {
  const charted = m.kind === 'ratio' || m.kind === 'time' || (m.kind === 'quality' && m.unit.endsWith('/s'));
  if (!charted || !(m.value > 0)) return null;
  const direction = directionOf(m);
  return direction === 'bigger' || direction === 'smaller' ? direction : null;
}

/**
 * A value as the action's comment prints it (issue 40: it showed 0.4415430708538491 x): 4
 * significant digits, far finer than any alert threshold; the run record keeps full precision.
 */
const shown = (x: number) => Number(x.toPrecision(4));

const interval = (ci: readonly [number, number], unit: string) => `[${significant(ci[0])}, ${significant(ci[1])}]${unit ? ` ${unit}` : ''}`;

/** The run's metrics of one direction: each its estimate, its 95% interval as the range, where it was measured as the tooltip. */
export function recordGab(record: RunRecord, direction: GabDirection): GabBenchmark[] {
  return record.metrics
    .filter((m) => gabDirection(m) === direction)
    .map((m) => ({
      name: m.id,
      value: shown(m.value),
      unit: m.unit,
      ...(m.ci ? { range: `95% CI ${interval(m.ci, m.unit)}` } : {}),
      extra: [`profile ${record.profile.id}`, `scenario ${m.scenario}`, ...(m.n ? [`n ${m.n}`] : [])].join('\n'),
    }));
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;

/** An A/B's verdicts of one direction: the head arm's geometric mean, the change with its interval as the range. */
export function abGab(result: AbResult, direction: GabDirection): GabBenchmark[] {
  return result.verdicts
    .filter((v) => judgedDirection(v) === direction && v.head > 0)
    .map((v) => ({
      name: v.id,
      value: shown(v.head),
      unit: v.kind === 'ratio' ? 'x' : 'ms',
      range: `head/base ${pct(v.change)} [${pct(v.ci[0])}, ${pct(v.ci[1])}] at ${Math.round(100 * v.confidence)}%`,
      extra: [
        `A/B ${result.base} -> ${result.head}${result.profile ? ` on ${result.profile}` : ''}`,
        `${v.verdict} (p ${v.p.toPrecision(2)})`,
        `${v.processes[0]} + ${v.processes[1]} processes`,
      ].join('\n'),
    }));
}

const text = (benches: readonly GabBenchmark[]) => `${JSON.stringify(benches, null, 2)}\n`;

/** Why a file of this direction would be empty (the action fails the step on `[]`: "No benchmark result was found"), or null. */
const nothingOf = (benches: readonly GabBenchmark[], direction: GabDirection, what: string): string | null =>
  benches.length > 0 ? null : `${what} has no ${direction}-is-better figure to chart, and github-action-benchmark fails on an empty file`;

/** The exporter of one of the action's two files; nothing is written where it would be empty. */
const gabExporter = (direction: GabDirection): Exporter => ({
  format: `gab-${direction}`,
  render: ({ record }) => text(recordGab(record, direction)),
  renderAb: (result) => text(abGab(result, direction)),
  nothing: ({ record }) => nothingOf(recordGab(record, direction), direction, 'this run'),
  nothingAb: (result) => nothingOf(abGab(result, direction), direction, 'this A/B'),
});

/** `--gab-bigger FILE`: speedups and rates. */
export const gabBiggerExporter = gabExporter('bigger');
/** `--gab-smaller FILE`: times, and ratios where smaller is better (a step's time over the resident step's). */
export const gabSmallerExporter = gabExporter('smaller');
