import type { Comparison } from '../results/compare.js';
import type { Metric, RunRecord } from '../results/schema.js';
import type { Verdict } from '../results/verdict.js';
import { renderCharts, type RenderedChart } from './charts.js';
import { relativeChange, summaryLine, verdictLabel } from './comparison.js';
import type { Exporter, ReportInput } from './exporter.js';
import { formatCI, formatValue, significant, speedupSentence } from './format.js';

/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const h = escapeHtml;
const SPEEDUP_ID = 'mnist-transfer.speedup';

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 24px 48px; color: #222; }
h1 { font-size: 22px; margin: 24px 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; } .meta { color: #555; margin: 0; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; } th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.detail { color: #666; font-size: 12px; max-width: 60em; } .labels { color: #555; font-size: 12px; }
td.metric { min-width: 26em; } details summary { color: #0b6bcb; cursor: pointer; font-size: 12px; }
table.metrics { width: 100%; }
.verdict-pass { color: #18794e; } .verdict-regressed { color: #c62828; font-weight: bold; } .verdict-improved { color: #0b6bcb; }
.verdict-inconclusive { color: #a15c00; } .verdict-new { color: #555; } .verdict-missing { color: #8e24aa; }
.headline { font-size: 16px; padding: 10px 14px; background: #f6f8fa; border-left: 4px solid #4c78a8; }
.errors { background: #fdecea; border-left: 4px solid #c62828; padding: 8px 14px; } .notes li { margin: 4px 0; }
#charts .grid { display: flex; flex-wrap: wrap; gap: 8px 32px; align-items: flex-start; } figure.chart { margin: 12px 0; } figure.chart figcaption { max-width: 520px; }
nav { font-size: 13px; margin: 8px 0; } nav a { margin-right: 12px; } figure.chart figcaption { font-weight: 600; margin-bottom: 4px; } figure.chart svg { max-width: 100%; height: auto; }
pre { background: #f6f8fa; padding: 8px; overflow-x: auto; font-size: 12px; }
`;

function table(head: readonly string[], rows: readonly string[][], attrs = ''): string {
  const th = head.map((c) => `<th>${h(c)}</th>`).join('');
  return `<table${attrs}><thead><tr>${th}</tr></thead><tbody>${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody></table>`;
}
const td = (text: string, cls = '') => `<td${cls ? ` class="${cls}"` : ''}>${h(text)}</td>`;

function header(record: RunRecord, recordPath: string | null): string {
  const git = record.git.commit ? `${record.git.commit.slice(0, 12)}${record.git.dirty ? ' (uncommitted changes)' : ''}` : 'unknown';
  const selection = record.selection === null ? 'every scenario' : record.selection.join(', ');
  return [
    `<h1>gpu-transfer-perf: ${h(record.profile.id)}</h1>`,
    `<p class="meta">${h(record.scale)} scale · ${h(record.createdAt)} · commit ${h(git)} · ${h(selection)}${recordPath ? ` · run record ${h(recordPath)}` : ''}</p>`,
  ].join('\n');
}

function summary(record: RunRecord, comparison: Comparison | null): string {
  const parts: string[] = [];
  const speedup = record.metrics.find((m) => m.id === SPEEDUP_ID);
  if (speedup) parts.push(`<p class="headline">${h(speedupSentence(speedup, 'cpu-normalize', 'device-normalize'))}</p>`);
  if (!comparison) parts.push('<p>No baseline for this profile: nothing compared.</p>');
  else if (comparison.refused) parts.push(`<p class="verdict-missing">Baseline comparison refused: ${h(comparison.refused)}.</p>`);
  else parts.push(`<p>Compared with baseline ${h(comparison.baselineProfile)} (${h(comparison.scale)} scale). ${h(summaryLine(comparison))}</p>`);
  for (const note of comparison?.notes ?? []) parts.push(`<p class="meta">${h(note)}</p>`);
  return `<section id="summary"><h2>Summary</h2>${parts.join('\n')}</section>`;
}

function errors(record: RunRecord): string {
  if (record.errors.length === 0) return '';
  const items = record.errors.map((e) => `<li><b>[${h(e.scenario)}] ${h(e.test)}</b><pre>${h(e.message)}</pre></li>`).join('');
  return `<section id="errors" class="errors"><h2>Errors (${record.errors.length}): the run fails whatever its metrics say</h2><ul>${items}</ul></section>`;
}

function notes(record: RunRecord): string {
  if (record.notes.length === 0) return '';
  return `<section id="notes"><h2>Notes</h2><ul class="notes">${record.notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul></section>`;
}

function profile(record: RunRecord): string {
  const p = record.profile;
  const a = p.adapter;
  const rows: Array<[string, string]> = [
    ['profile id', p.id],
    ['backend', `${p.backend}: ${p.backendReason}`],
    [
      'adapter',
      a ? `${a.vendor} / ${a.architecture} / ${a.device} / ${a.description}${a.isSoftware ? ' (SOFTWARE: a CPU rasterizer, not a GPU)' : ''}` : 'none',
    ],
    ...(a ? ([['adapter features', a.features.join(', ') || 'none']] as Array<[string, string]>) : []),
    ...(p.isUsingGpuDevice !== null ? ([['TensorFlow found a GPU', String(p.isUsingGpuDevice)]] as Array<[string, string]>) : []),
    ['CPU', `${p.cpu.model} (${p.cpu.cores} cores)`],
    ['OS', p.os],
    ['Node', p.node],
    [
      'versions',
      Object.entries(p.versions)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none',
    ],
    ['bytes counted at', p.transferBoundary],
    ...Object.entries(record.datasets).map(([name, what]): [string, string] => [`data: ${name}`, what]),
  ];
  const caps = Object.entries(p.capabilities).map(([name, c]) => [
    td(name),
    td(c.supported ? 'yes' : 'no', c.supported ? 'verdict-pass' : 'verdict-missing'),
    td(c.detail),
  ]);
  return [
    '<section id="profile"><h2>Hardware profile</h2>',
    table(
      ['', ''],
      rows.map(([k, v]) => [`<th>${h(k)}</th>`, td(v)]),
    ),
    caps.length > 0 ? `<h3>Capabilities the article's advice depends on</h3>${table(['capability', 'supported', 'detail'], caps)}` : '',
    diagnostics(record),
    '</section>',
  ].join('\n');
}

/** Noise diagnostics per measuring process, when the run recorded them (any fields, shown as they are). */
function diagnostics(record: RunRecord): string {
  const list = (record as { diagnostics?: ReadonlyArray<Readonly<Record<string, unknown>>> }).diagnostics;
  if (!list || list.length === 0) return '';
  const keys = [...new Set(list.flatMap((d) => Object.keys(d)))];
  return `<h3>What else the machine was doing (per measuring process)</h3>${table(
    keys,
    list.map((d) => keys.map((k) => td(typeof d[k] === 'number' ? significant(d[k] as number) : String(d[k] ?? ''), 'num'))),
  )}`;
}

function chartsSection(charts: readonly RenderedChart[]): string {
  if (charts.length === 0) return '';
  // vega's SVG is generated from the run's numbers and labels by vega itself (text escaped by its SVG renderer).
  const figures = charts.map((c) => `<figure class="chart" data-chart="${h(c.name)}"><figcaption>${h(c.title)}</figcaption>${c.svg}</figure>`);
  return `<section id="charts"><h2>Charts</h2><div class="grid">${figures.join('\n')}</div></section>`;
}

const labelText = (m: Metric) =>
  Object.entries(m.labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

function metricRow(m: Metric, verdict: Verdict | undefined): string[] {
  const baseline = verdict?.baseline ? formatValue(verdict.baseline) : '';
  const cls = verdict ? `verdict-${verdict.verdict}` : '';
  return [
    // The detail (what was measured and how) folds away: a table of 60 figures stays readable.
    `<td class="metric"><code>${h(m.id)}</code>${m.labels ? `<div class="labels">${h(labelText(m))}</div>` : ''}${m.detail ? `<details><summary>how</summary><div class="detail">${h(m.detail)}</div></details>` : ''}</td>`,
    td(formatValue(m), 'num'),
    td(formatCI(m), 'num'),
    td(m.n === undefined ? '' : String(m.n), 'num'),
    td(m.kind + (m.bound && (m.bound.min !== undefined || m.bound.max !== undefined) ? ` [${m.bound.min ?? '-inf'}, ${m.bound.max ?? 'inf'}]` : '')),
    td(baseline, 'num'),
    td(verdict ? relativeChange(verdict) : '', 'num'),
    `<td class="${cls}"${verdict ? ` title="${h(verdict.reason)}"` : ''}>${h(verdict ? verdictLabel(verdict) : 'no baseline')}</td>`,
  ];
}

/** The scenarios of the run in the order their metrics (then errors) appear. */
export function scenariosOf(record: RunRecord): string[] {
  return [...new Set([...record.metrics.map((m) => m.scenario), ...record.errors.map((e) => e.scenario)])];
}

function scenarioSections(record: RunRecord, comparison: Comparison | null): string {
  const verdicts = new Map((comparison?.verdicts ?? []).filter((v) => v.current).map((v) => [v.id, v]));
  const scenarios = scenariosOf(record);
  const nav = `<nav>${scenarios.map((s) => `<a href="#scenario-${h(s)}">${h(s)}</a>`).join('')}</nav>`;
  const sections = scenarios.map((s) => {
    const metrics = record.metrics.filter((m) => m.scenario === s);
    const failed = record.errors.filter((e) => e.scenario === s);
    const rows = metrics.map((m) => metricRow(m, verdicts.get(m.id)));
    const head = ['metric', 'value', '95% CI', 'n', 'kind', 'baseline', 'change', 'verdict'];
    return [
      `<section class="scenario" id="scenario-${h(s)}" data-scenario="${h(s)}"><h3>${h(s)}</h3>`,
      failed.length > 0 ? `<p class="verdict-regressed">${failed.length} test(s) failed: ${failed.map((e) => h(e.test)).join('; ')}</p>` : '',
      table(head, rows, ` class="metrics" data-scenario="${h(s)}"`),
      '</section>',
    ].join('\n');
  });
  const missing = (comparison?.verdicts ?? []).filter((v) => v.verdict === 'missing');
  const missingTable =
    missing.length > 0
      ? `<h3>In the baseline, not in this run (${missing.length})</h3>${table(
          ['metric', 'scenario', 'baseline', 'verdict'],
          missing.map((v) => [
            td(v.id),
            td(v.baseline?.scenario ?? ''),
            td(v.baseline ? formatValue(v.baseline) : '', 'num'),
            td(verdictLabel(v), 'verdict-missing'),
          ]),
        )}`
      : '';
  return `<section id="scenarios"><h2>Scenarios</h2>${nav}${sections.join('\n')}${missingTable}</section>`;
}

function kernelTables(record: RunRecord): string {
  const tables = Object.entries(record.kernelTables ?? {});
  if (tables.length === 0) return '';
  const parts = tables.map(
    ([name, t]) =>
      `<h3>${h(name)}</h3><p class="meta">${h(t.step)} (${t.kernelCount} kernels, ${h(significant(t.totalKernelMs))} ms in all; ${h(t.timing)})</p>${table(
        ['kernel', 'calls', 'total ms', 'mean ms', '% of kernel time'],
        t.rows.map((r) => [
          td(r.name),
          td(String(r.calls), 'num'),
          td(significant(r.totalMs), 'num'),
          td(significant(r.meanMs), 'num'),
          td(r.percent.toFixed(1), 'num'),
        ]),
        ` class="kernel-table" data-table="${h(name)}"`,
      )}`,
  );
  return `<section id="kernel-tables"><h2>Top kernels of one train step (sections 3 and 5)</h2>${parts.join('\n')}</section>`;
}

/** The whole run as one self-contained HTML page: no scripts, no network, charts as inline SVG. */
export async function renderHtml({ record, recordPath, comparison }: ReportInput): Promise<string> {
  const charts = await renderCharts(record);
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Marks the page as this harness's report: a later run may replace it, nothing else (src/cli/outputs.ts).
    '<meta name="generator" content="gpu-transfer-perf">',
    // Nothing may load from anywhere: the page must open from disk with no network.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>gpu-transfer-perf: ${h(record.profile.id)} (${h(record.scale)})</title>`,
    `<style>${STYLE}</style></head><body>`,
    header(record, recordPath),
    summary(record, comparison),
    errors(record),
    notes(record),
    chartsSection(charts),
    scenarioSections(record, comparison),
    kernelTables(record),
    profile(record),
    `<footer class="meta"><p>Written by gpu-transfer-perf's HTML exporter from the run record${recordPath ? ` ${h(recordPath)}` : ''}.</p></footer>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** `results/<run>.html`: the run, its verdicts, charts, kernel tables and profile in one file. */
export const htmlExporter: Exporter = {
  format: 'html',
  render: (input) => renderHtml(input),
};
