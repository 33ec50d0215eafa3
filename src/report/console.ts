import Table from 'cli-table3';
import type { RunRecord } from '../results/schema.js';
import { renderComparison } from './comparison.js';
import { renderDtypeSection } from './dtype-table.js';
import type { Exporter } from './exporter.js';
import { renderStageTables } from './stage-table.js';
import { formatCI, formatValue, significant, speedupSentence } from './format.js';

const SPEEDUP_ID = 'mnist-transfer.speedup';

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

/** The whole run as text for a terminal: who ran, caveats, the headline, tables, errors. */
function renderRunReport(record: RunRecord, recordPath: string | null): string {
  const p = record.profile;
  const lines: string[] = [];
  lines.push(`gpu-transfer-perf: profile ${p.id}, ${record.scale} scale, ${record.createdAt}`);
  lines.push(`backend ${p.backend}: ${p.backendReason}`);
  if (p.adapter) lines.push(`adapter: ${p.adapter.vendor} / ${p.adapter.architecture} / ${p.adapter.description}`);
  lines.push(`bytes counted at: ${p.transferBoundary}`);
  for (const note of record.notes) lines.push(`NOTE: ${note}`);
  const speedup = record.metrics.find((m) => m.id === SPEEDUP_ID);
  if (speedup) lines.push('', `Headline: ${speedupSentence(speedup, 'cpu-normalize', 'device-normalize')}`);
  const scenarios = [...new Set(record.metrics.map((m) => m.scenario))];
  for (const s of scenarios) lines.push('', `[${s}]`, metricTable(record, s));
  for (const [name, t] of Object.entries(record.kernelTables ?? {})) lines.push('', kernelTableText(name, t));
  const stages = renderStageTables(record.metrics);
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

/** The terminal report: the run, then its comparison with the baseline when there is one. */
export const consoleExporter: Exporter = {
  format: 'console',
  render({ record, recordPath, comparison }, { color }) {
    const run = renderRunReport(record, recordPath);
    return comparison ? `${run}\n\n${renderComparison(comparison, color)}` : run;
  },
};
