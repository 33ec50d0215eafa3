import type { AbResult } from '../results/ab-result.js';
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
 * The direction of a metric, as the harness judges it (src/results/verdict.ts): a ratio (a
 * speedup) is better higher, a time lower; a rate (a quality in something per second) is better
 * higher. Exact metrics (checked for equality) and other qualities (checked against a bound,
 * in no one direction) are not charted: null.
 */
export function gabDirection(m: Pick<Metric, 'kind' | 'unit'>): GabDirection | null {
  if (m.kind === 'ratio') return 'bigger';
  if (m.kind === 'time') return 'smaller';
  if (m.kind === 'quality' && m.unit.endsWith('/s')) return 'bigger';
  return null;
}

const interval = (ci: readonly [number, number], unit: string) => `[${significant(ci[0])}, ${significant(ci[1])}]${unit ? ` ${unit}` : ''}`;

/** The run's metrics of one direction: each its estimate, its 95% interval as the range, where it was measured as the tooltip. */
export function recordGab(record: RunRecord, direction: GabDirection): GabBenchmark[] {
  return record.metrics
    .filter((m) => gabDirection(m) === direction)
    .map((m) => ({
      name: m.id,
      value: m.value,
      unit: m.unit,
      ...(m.ci ? { range: `95% CI ${interval(m.ci, m.unit)}` } : {}),
      extra: [`profile ${record.profile.id}`, `scenario ${m.scenario}`, ...(m.n ? [`n ${m.n}`] : [])].join('\n'),
    }));
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;

/** An A/B's verdicts of one direction: the head arm's geometric mean, the change with its interval as the range. */
export function abGab(result: AbResult, direction: GabDirection): GabBenchmark[] {
  return result.verdicts
    .filter((v) => gabDirection({ kind: v.kind, unit: v.kind === 'ratio' ? 'x' : 'ms' }) === direction)
    .map((v) => ({
      name: v.id,
      value: v.head,
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

/** The exporter of one of the action's two files. */
const gabExporter = (direction: GabDirection): Exporter => ({
  format: `gab-${direction}`,
  render: ({ record }) => text(recordGab(record, direction)),
  renderAb: (result) => text(abGab(result, direction)),
});

/** `--gab-bigger FILE`: speedups and rates. */
export const gabBiggerExporter = gabExporter('bigger');
/** `--gab-smaller FILE`: times. */
export const gabSmallerExporter = gabExporter('smaller');
