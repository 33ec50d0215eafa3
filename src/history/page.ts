import type * as vl from 'vega-lite';
import { ChartsUnavailableError, renderSvg } from '../report/charts.js';
import { escapeHtml as h } from '../report/html.js';
import { significant } from '../report/format.js';
import type { ChangePoint, Series } from './change-points.js';

/** One metric's analysed history, as the page and the console show it. */
export interface AnalysedSeries {
  readonly series: Series;
  /** null: not analysed (time and quality metrics). */
  readonly changePoints: readonly ChangePoint[] | null;
}

/** What the page is about: the profile, where the records came from, and how they were analysed. */
export interface PageInput {
  readonly profile: string;
  readonly historyDir: string;
  readonly records: number;
  /** Lines about the method and its parameters, and about skipped or unordered records. */
  readonly notes: readonly string[];
  readonly analysed: readonly AnalysedSeries[];
  /** Fewest records in which a ratio series can have a change point (twice the minimum segment). */
  readonly testableFrom: number;
}

/** The first 8 characters of a commit, or '(none)'. */
export const shortCommit = (commit: string | null) => (commit ? commit.slice(0, 8) : '(none)');

/** A change point's step in words: '0.83x [0.78, 0.88], p 0.002' for a ratio, '50176 -> 200704' for an exact metric. */
export function describeStep(series: Series, c: ChangePoint): string {
  if (c.stepCi === null) return `${series.points[c.index - 1]!.value} -> ${series.points[c.index]!.value}`;
  return `${significant(c.step, 3)}x [${significant(c.stepCi[0], 3)}, ${significant(c.stepCi[1], 3)}] (median after / before, ${c.nAfter} vs ${c.nBefore} points), p ${significant(c.p ?? Number.NaN, 2)}`;
}

/** The layers of a layered vega-lite spec, named from vega-lite's own top-level type (its deep modules are not a public entry point). */
type Layers = Extract<vl.TopLevelSpec, { layer: unknown }>['layer'];

/** The vega-lite trend chart of one series: value by record (oldest left), the CI as a band, each change point a dashed red rule between its two records. */
export function trendSpec(a: AnalysedSeries): vl.TopLevelSpec {
  const rows = a.series.points.map((p, i) => ({
    index: i + 1,
    commit: shortCommit(p.commit),
    value: p.value,
    lo: p.ci?.[0] ?? p.value,
    hi: p.ci?.[1] ?? p.value,
  }));
  const rules = (a.changePoints ?? []).map((c) => ({ at: c.index + 0.5, label: `${shortCommit(c.before)} -> ${shortCommit(c.after)}` }));
  const x = { field: 'index', type: 'quantitative', title: 'record (git first-parent order, oldest left)', axis: { tickMinStep: 1, format: 'd' } } as const;
  const layers: Layers = [
    { mark: { type: 'area', opacity: 0.2, color: '#4c78a8' }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
    {
      mark: { type: 'line', point: true, color: '#4c78a8' },
      encoding: {
        x,
        y: { field: 'value', type: 'quantitative', title: `${a.series.id}${a.series.unit ? ` (${a.series.unit})` : ''}`, scale: { zero: false } },
        tooltip: [{ field: 'commit' }, { field: 'value', type: 'quantitative' }],
      },
    },
  ];
  if (rules.length > 0) {
    layers.push({
      data: { values: rules },
      mark: { type: 'rule', color: '#c62828', strokeDash: [4, 3], strokeWidth: 1.5 },
      encoding: { x: { field: 'at', type: 'quantitative' }, tooltip: [{ field: 'label' }] },
    });
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    config: { font: 'sans-serif', view: { stroke: '#ddd' } },
    width: 520,
    height: 200,
    data: { values: rows },
    layer: layers,
  };
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 0 24px 48px; color: #222; }
h1 { font-size: 22px; margin: 24px 0 4px; } h2 { font-size: 16px; margin: 28px 0 6px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.meta { color: #555; margin: 2px 0; } table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; } th { background: #f4f4f4; } .change { color: #c62828; }
figure { margin: 8px 0; } svg { max-width: 100%; height: auto; }
`;

/** What a series' change points come to in a few words: 'not analysed', 'too few records', 'no change point', 'N change points'. */
export function changeSummary(a: AnalysedSeries, testableFrom: number): string {
  if (a.changePoints === null) return 'not analysed (time and quality metrics are shown for information only)';
  const n = a.changePoints.length;
  if (n === 0 && a.series.kind === 'ratio' && a.series.points.length < testableFrom)
    return `too few records to test for a change point (it takes ${testableFrom})`;
  return n === 0 ? 'no change point' : `${n} change point${n === 1 ? '' : 's'}`;
}

/** The change points of one series as a list, or a line saying why there are none. */
function changeList(a: AnalysedSeries, testableFrom: number): string {
  if (a.changePoints === null || a.changePoints.length === 0) return `<p class="meta">${h(changeSummary(a, testableFrom))}.</p>`;
  const items = a.changePoints.map(
    (c) =>
      `<li class="change">between record ${c.index} (<code>${h(shortCommit(c.before))}</code>) and ${c.index + 1} (<code>${h(shortCommit(c.after))}</code>): ${h(describeStep(a.series, c))}</li>`,
  );
  return `<ul>${items.join('')}</ul>`;
}

/** The points of one series as a table: record, commit, value, CI. */
function pointTable(a: AnalysedSeries): string {
  const rows = a.series.points.map(
    (p, i) =>
      `<tr><td>${i + 1}</td><td><code>${h(shortCommit(p.commit))}</code>${p.dirty ? ' (dirty)' : ''}</td><td>${h(p.createdAt)}</td><td>${h(significant(p.value, 4))}</td><td>${p.ci ? h(`[${significant(p.ci[0], 4)}, ${significant(p.ci[1], 4)}]`) : ''}</td></tr>`,
  );
  return `<details><summary>${a.series.points.length} records</summary><table><thead><tr><th>#</th><th>commit</th><th>created</th><th>value</th><th>95% CI</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}

/** Whether a series gets a chart: every ratio series, an exact one only where it changed (a flat exact line says nothing a table does not). */
const charted = (a: AnalysedSeries) => a.series.kind !== 'exact' || (a.changePoints?.length ?? 0) > 0;

/** The self-contained trend page: inline SVG charts (vega-lite rendered in Node), inline CSS, no scripts and nothing fetched. */
export async function renderHistoryPage(input: PageInput): Promise<string> {
  const sections: string[] = [];
  const constant: string[] = [];
  for (const a of input.analysed) {
    if (!charted(a)) {
      constant.push(
        `<tr><td><code>${h(a.series.id)}</code></td><td>${h(String(a.series.points[0]?.value ?? ''))} ${h(a.series.unit)}</td><td>${a.series.points.length}</td></tr>`,
      );
      continue;
    }
    const svg = await renderSvg(trendSpec(a)).catch((error: unknown) => {
      if (error instanceof ChartsUnavailableError) return `<p class="note">${h(error.message)}</p>`;
      throw error;
    });
    sections.push(
      `<section><h2><code>${h(a.series.id)}</code> <span class="meta">(${h(a.series.kind)})</span></h2>${changeList(a, input.testableFrom)}<figure>${svg}</figure>${pointTable(a)}</section>`,
    );
  }
  const constantTable = constant.length
    ? `<section><h2>Exact metrics that never changed (${constant.length})</h2><table><thead><tr><th>metric</th><th>value</th><th>records</th></tr></thead><tbody>${constant.join('')}</tbody></table></section>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="generator" content="gpu-transfer-perf">
<title>gpu-transfer-perf history: ${h(input.profile)}</title><style>${STYLE}</style></head>
<body><h1>History of ${h(input.profile)}</h1>
<p class="meta">${input.records} run records from <code>${h(input.historyDir)}</code>.</p>
${input.notes.map((n) => `<p class="meta">${h(n)}</p>`).join('\n')}
${sections.join('\n')}
${constantTable}
</body></html>
`;
}
