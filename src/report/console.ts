import Table from 'cli-table3';
import { styleText } from 'node:util';
import type { Comparison } from '../results/compare.js';
import { type Metric, type RunRecord, skippedLine } from '../results/schema.js';
import { informational } from '../results/verdict.js';
import { relativeChange, renderComparison, renderComparisonBrief, verdictLabel } from './comparison.js';
import { renderDtypeSection } from './dtype-table.js';
import type { Exporter } from './exporter.js';
import { renderStageTables } from './stage-table.js';
import { formatCI, formatValue, significant } from './format.js';
import { runSummary } from './summary.js';

function metricTable(record: RunRecord, scenario: string): string {
  const table = new Table({ head: ['metric', 'value', '95% CI', 'n', 'source'], style: { head: [], border: [] } });
  // Stage figures are shown in the stage tables instead.
  const metrics = record.metrics.filter((x) => x.scenario === scenario && x.labels?.table !== 'stages');
  for (const m of metrics) table.push([m.id, formatValue(m), formatCI(m), m.processes ? `${m.processes.length} proc.` : (m.n ?? ''), m.source ?? '']);
  // What each figure measured and how, under its table (the run record keeps the same text).
  const how = metrics.filter((m) => m.detail).map((m) => `  ${m.id}: ${m.detail}`);
  return [table.toString(), ...how].join('\n');
}

function kernelTableText(name: string, t: NonNullable<RunRecord['kernelTables']>[string]): string {
  const table = new Table({
    head: ['kernel', 'calls', 'total ms', 'mean ms', '% of kernel time'],
    style: { head: [], border: [] },
  });
  for (const r of t.rows) table.push([r.name, r.calls, significant(r.totalMs), significant(r.meanMs), r.percent.toFixed(1)]);
  return `Top kernels, ${name}: ${t.step}\n(${t.kernelCount} kernels, ${significant(t.totalKernelMs)} ms in all; ${t.timing})\n${table.toString()}`;
}

/** Who ran, its caveats and the headline (`runSummary`'s); `brief` leaves out where bytes are counted (in the report). */
function headerLines(record: RunRecord, headline: string | null, brief: boolean): string[] {
  const p = record.profile;
  const adapter = p.adapter ? `${p.adapter.vendor} / ${p.adapter.architecture} / ${p.adapter.description}` : null;
  const lines = [`gpu-transfer-perf: profile ${p.id}, ${record.scale} scale, ${record.createdAt}`];
  if (brief) lines.push(`backend ${p.backend}: ${p.backendReason}${adapter ? `; adapter ${adapter}` : ''}`);
  else lines.push(`backend ${p.backend}: ${p.backendReason}`, ...(adapter ? [`adapter: ${adapter}`] : []), `bytes counted at: ${p.transferBoundary}`);
  for (const note of record.notes) lines.push(`NOTE: ${note}`);
  for (const s of record.skipped ?? []) lines.push(`SKIPPED: ${skippedLine(s)}`);
  if (headline) lines.push('', `Headline: ${headline}`);
  return lines;
}

/** The whole run as text for a terminal: who ran, caveats, the headline, tables, errors. */
function renderRunReport(record: RunRecord, recordPath: string | null): string {
  const lines = headerLines(record, runSummary(record, null).headline, false);
  const scenarios = [...new Set(record.metrics.map((m) => m.scenario))];
  for (const s of scenarios) lines.push('', `[${s}]`, metricTable(record, s));
  for (const [name, t] of Object.entries(record.kernelTables ?? {})) lines.push('', kernelTableText(name, t));
  const stages = renderStageTables(record.metrics, record.profile.backend);
  if (stages) lines.push('', stages);
  const dtypes = renderDtypeSection(record);
  if (dtypes) lines.push('', dtypes);
  if (record.errors.length > 0) {
    lines.push('', `ERRORS (${record.errors.length}):`);
    for (const e of record.errors) lines.push(`  [${e.scenario}] ${e.test}: ${e.message.split('\n')[0]}`);
  }
  if (recordPath) lines.push('', `Run record: ${recordPath}`);
  return lines.join('\n');
}

/** The terminal report, every table: the run, then its comparison with the baseline when there is one (`--verbose`). */
export const verboseConsoleExporter: Exporter = {
  format: 'console',
  render({ record, recordPath, comparison }, { color }) {
    const run = renderRunReport(record, recordPath);
    return comparison ? `${run}\n\n${renderComparison(comparison, color)}` : run;
  },
};

/** At most this many errors are listed one per line; the run record and the HTML report keep them all. */
const ERROR_LINES = 10;

/**
 * ' (baseline 0.78x, -3.8%)' beside a headline's lead ratio, with the verdict's word only when
 * it was judged across processes (or by a prediction interval); '' for other kinds (exact ones
 * that change fail and are listed; times are listed when judged) and without a baseline.
 */
function besideBaseline(comparison: Comparison | null): (m: Metric) => string {
  const verdicts = new Map((comparison?.verdicts ?? []).map((v) => [v.id, v]));
  return (m) => {
    const v = verdicts.get(m.id);
    if (m.kind !== 'ratio' || !v?.baseline || !v.current) return '';
    return ` (baseline ${formatValue(v.baseline)}, ${relativeChange(v)}${informational(v) ? '' : `: ${verdictLabel(v)}`})`;
  };
}

/**
 * The run on one screen (hyperfine's and vitest's summaries): who ran and its caveats, the
 * headline, one line per scenario (its headline figure and what it means, ratios beside their
 * baseline), then only what fails or needs action, and the verdict counts with the exit code.
 * Every table is in --verbose, the HTML report and the run record.
 */
function renderBrief(record: RunRecord, recordPath: string | null, comparison: Comparison | null, color: boolean): string {
  const summary = runSummary(record, comparison, besideBaseline(comparison));
  const lines = headerLines(record, summary.headline, true);
  const scenarios = summary.scenarios;
  if (scenarios.length > 0) {
    const width = Math.max(...scenarios.map((s) => s.id.length));
    // ✗ fails the run; ! has a metric regressed or beyond its band that does not (information, or
    // inconclusive): listed below with its baseline, value, change and why; ✓ only when neither.
    const paint = (c: 'red' | 'yellow' | 'green', mark: string) => (color ? styleText(c, mark) : mark);
    const mark = (failed: boolean, flagged: boolean) => (failed ? paint('red', '✗') : flagged ? paint('yellow', '!') : paint('green', '✓'));
    lines.push('', `Scenarios (${scenarios.length}; 95% CIs in brackets; a lead ratio beside its baseline; ✗ fails, ! needs a look):`);
    for (const { id, headline, failed, flagged } of scenarios) {
      const text = headline?.text ?? 'no figures (see the errors below)';
      lines.push(`  ${mark(failed, flagged)} ${id.padEnd(width)}  ${text}`);
    }
  }
  if (record.errors.length > 0) {
    lines.push('', `ERRORS (${record.errors.length}): the run fails whatever its metrics say`);
    for (const e of record.errors.slice(0, ERROR_LINES)) lines.push(`  [${e.scenario}] ${e.test}: ${e.message.split('\n')[0]}`);
    if (record.errors.length > ERROR_LINES) lines.push(`  ... and ${record.errors.length - ERROR_LINES} more (in the run record and the HTML report)`);
  }
  if (comparison) lines.push('', renderComparisonBrief(comparison, record.selection, color));
  // The last block: verdict counts and exit code, then where the record is (the caller adds the report's path).
  if (recordPath) lines.push(...(comparison ? [] : ['']), `Run record: ${recordPath}`);
  return lines.join('\n');
}

/** The terminal report by default: one screen (`renderBrief`); --verbose prints every table (`verboseConsoleExporter`). */
export const consoleExporter: Exporter = {
  format: 'console',
  render({ record, recordPath, comparison }, { color }) {
    return renderBrief(record, recordPath, comparison, color);
  },
};
