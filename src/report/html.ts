import { type Comparison, ranScenario } from '../results/compare.js';
import { type Metric, type RunRecord, skippedLine } from '../results/schema.js';
import type { Verdict } from '../results/verdict.js';
import { CHARTS_MISSING, chartLibraries } from './chart-libraries.js';
import { type LimitRow, limitRows, renderCharts, type RenderedChart } from './charts.js';
import { isArticleScenario, limitReferences, ratioSentence } from './headline.js';
import { stageGroup, stageMetrics } from './stage-table.js';
import { relativeChange, verdictLabel } from './comparison.js';
import type { Exporter, ReportInput } from './exporter.js';
import { ciDirection, type Direction, formatCI, formatValue, significant } from './format.js';
import { CLAIM, type ClaimRatio, claimSubject, type RunSummary, runSummary } from './summary.js';
import { commandLine } from '../base/commands.js';

/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const h = escapeHtml;

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 24px 48px; color: #222; }
h1 { font-size: 22px; margin: 16px 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; } .meta { color: #555; margin: 0; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; } th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.detail { color: #666; font-size: 12px; max-width: 60em; } .labels { color: #555; font-size: 12px; }
td.metric { min-width: 26em; } details summary { color: #0b6bcb; cursor: pointer; font-size: 12px; }
table.metrics { width: 100%; }
.verdict-pass { color: #18794e; } .verdict-regressed { color: #c62828; font-weight: bold; } .verdict-improved { color: #0b6bcb; }
.verdict-inconclusive { color: #a15c00; } .verdict-new { color: #555; } .verdict-missing { color: #8e24aa; }
.verdict-info { color: #555; }
#at-a-glance { display: flex; flex-direction: column; gap: 10px; margin-top: 10px; }
table.claim td:nth-child(2) { white-space: nowrap; } #claim > p.meta { max-width: none; } h1 + p.meta + #at-a-glance { margin-top: 8px; }
#limits .beside { display: flex; gap: 16px; align-items: flex-start; } #limits .beside > div { max-width: 420px; } #at-a-glance td, #at-a-glance th { padding: 2px 8px; }
#at-a-glance .answer { margin: 0; padding: 6px 14px 8px; background: #f6f8fa; border-left: 4px solid #4c78a8; }
#at-a-glance h2 { font-size: 16px; margin: 4px 0 4px; border: none; padding: 0; } #at-a-glance .lead { font-size: 15px; margin: 2px 0 6px; font-weight: 600; }
#at-a-glance .meta { font-size: 12px; margin: 4px 0; max-width: 75em; } #at-a-glance table { margin: 4px 0; background: #fff; } #at-a-glance figure.chart { margin: 4px 0; }
.claim-faster { color: #18794e; } .claim-slower { color: #c62828; } .claim-unclear, .claim-mixed { color: #a15c00; } .warn { color: #a15c00; margin: 2px 0; }
.errors { background: #fdecea; border-left: 4px solid #c62828; padding: 8px 14px; } .notes li { margin: 4px 0; }
#charts .grid { display: flex; flex-wrap: wrap; gap: 8px 32px; align-items: flex-start; } figure.chart { margin: 12px 0; } figure.chart figcaption { max-width: 560px; }
nav { font-size: 13px; margin: 8px 0; } nav a { margin-right: 12px; } figure.chart svg { max-width: 100%; height: auto; }
figure.chart figcaption .title { display: block; font-weight: 600; } figure.chart figcaption .caption { display: block; color: #555; font-size: 12px; margin-bottom: 4px; }
figure.chart[data-chart="stages"] { flex-basis: 100%; } figure.chart[data-chart="stages"] figcaption { max-width: none; }
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

const ratioCells = (m: Metric) => [td(formatValue(m), 'num'), td(formatCI(m), 'num')];

/**
 * One row per scenario and comparison; a scenario with more than two batch sizes of one
 * comparison (the sweep) in one row that says at which sizes it was faster or slower.
 */
function claimRows(ratios: readonly ClaimRatio[]): string[][] {
  const rows: string[][] = [];
  for (const scenario of [...new Set(ratios.map((r) => r.metric.scenario))]) {
    const mine = ratios.filter((r) => r.metric.scenario === scenario);
    const bySize = mine.filter((r) => r.metric.labels?.batch !== undefined);
    const summarised = bySize.length > 2 ? bySize : [];
    for (const r of mine.filter((x) => !summarised.includes(x))) {
      rows.push([td(scenario), td(r.compared), ...ratioCells(r.metric), td(r.words, `claim-${r.direction}`)]);
    }
    if (summarised.length > 0) {
      const first = summarised[0]!;
      const values = summarised.map((r) => r.metric.value);
      const at = (d: Direction) => summarised.filter((r) => r.direction === d).map((r) => r.metric.labels!.batch);
      const words: Record<Direction, string> = { faster: 'faster', slower: 'slower', unclear: 'no clear difference' };
      const said = (['faster', 'unclear', 'slower'] as const).filter((d) => at(d).length > 0).map((d) => `${words[d]} at batch ${at(d).join(', ')}`);
      const all = new Set(summarised.map((r) => r.direction));
      const cls = all.size === 1 ? `claim-${[...all][0]}` : 'claim-mixed';
      rows.push([
        td(scenario),
        td(`transfer at ${summarised.length} batch sizes`),
        td(`${Math.min(...values).toFixed(2)}x to ${Math.max(...values).toFixed(2)}x`, 'num'),
        // Each size's CI: in the sweep's chart, else in the scenario's table.
        `<td class="num">${first.metric.labels?.table === 'sweep' ? '<a href="#charts">per size: chart</a>' : `<a href="#scenario-${h(scenario)}">per size: table</a>`}</td>`,
        td(`${claimSubject(first)}${said.join('; ')} (${first.where}, each size's CI against 1)`, cls),
      ]);
    }
  }
  return rows;
}

/** The answers of the first screen, in this order; a run shows those it has something for. */
export type Answer = 'claim' | 'ratios' | 'regressions' | 'limits' | 'stages';

/** What the first screen of a run's page answers, and with which of its figures. */
export interface FirstScreen {
  /** In page order: the article's claim, the run's own ratios, regressions (always), then its limits, else its stages. */
  readonly answers: readonly Answer[];
  /** Ratios that are neither the article's claim nor an article scenario's own: the user's perf files' and the flag questions'. */
  readonly ownRatios: readonly Metric[];
  /** The answer the chart of every ratio stands in, for a run with ratios of its own; null: in the charts section (an article run). */
  readonly ratioChartIn: 'claim' | 'ratios' | null;
  /**
   * Whether every scenario of the run is one of the article's (perf/ in this repository): its
   * commands are then named as this repository's npm scripts, else as the installed `gtp`.
   */
  readonly articleRun: boolean;
}

/** How to judge a ratio across processes, in the words of where the run was made. */
const acrossProcesses = (articleRun: boolean) =>
  articleRun
    ? '<code>npm run perf:ab -- --base &lt;ref&gt;</code> judges across processes'
    : `<code>${h(commandLine('ab', '--base <ref>', false))}</code> judges across processes (each commit measured by its own harness), and <code>--processes K</code> gives one value per process, which a baseline accepted from such a run judges`;

/**
 * Which answers a run's first screen gives (a pure function of the record and its summary): the
 * article's claim when the run measured one of its ratios, the run's own ratios when it has some
 * (a user's perf file, a `--shape` or `--image-folder` question), whether anything regressed, and
 * how far each strategy is from the device's limit, or, without limits, where the time goes. A
 * question the run has nothing for is left out.
 */
export function firstScreen(record: RunRecord, summary: Pick<RunSummary, 'claims'>): FirstScreen {
  const claimed = new Set(summary.claims.map((c) => c.metric));
  const ownRatios = record.metrics.filter((m) => m.kind === 'ratio' && !claimed.has(m) && !isArticleScenario(m.scenario));
  const answers: Answer[] = [];
  if (summary.claims.length > 0) answers.push('claim');
  if (ownRatios.length > 0) answers.push('ratios');
  answers.push('regressions');
  if (limitRows(record).length > 0) answers.push('limits');
  else if (stageMetrics(record, isStackedStage).length > 0) answers.push('stages');
  // A run of the user's: a ratio of a scenario not the article's, or no article scenario at all.
  const own = (m: Metric) => !isArticleScenario(m.scenario);
  const userRun = record.metrics.some((m) => m.kind === 'ratio' && own(m)) || (record.metrics.length > 0 && record.metrics.every(own));
  const ratioChartIn = !userRun ? null : ownRatios.length > 0 ? 'ratios' : summary.claims.length > 0 ? 'claim' : null;
  return { answers, ownRatios, ratioChartIn, articleRun: !userRun };
}

/** Stages a first screen reads where the time goes from: those each measured on its own. */
const STACKED = ['host', 'upload', 'compute', 'input', 'train'];
const isStackedStage = (stage: string | undefined) => STACKED.includes(stage ?? '');

/** The chart of every ratio, under the table of an answer (its own title and caption). */
const ratioChart = (chart: RenderedChart | undefined) => (chart ? figure(chart) : '');

/** Answer: is the article's claim true on this machine, per scenario, only as far as each CI allows. */
function claimAnswer(record: RunRecord, summary: RunSummary, screen: FirstScreen, n: number, chart: RenderedChart | undefined): string {
  const ratios = summary.claims;
  const heading = `<h2>${n}. Is the article's claim true on this machine?</h2>`;
  const claim = `<p class="meta">The claim: uint8 on the wire, normalized on the device (<b>${CLAIM.b}</b>), beats float32 normalized on the CPU (<b>${CLAIM.a}</b>). Speedup = time(${CLAIM.a}) / time(${CLAIM.b}).</p>`;
  const count = (d: Direction) => ratios.filter((r) => r.direction === d).length;
  const [faster, slower, unclear] = [count('faster'), count('slower'), count('unclear')];
  const oneProcess = summary.oneProcess;
  const where = oneProcess ? 'in this process' : 'in this run';
  const lead =
    faster === ratios.length
      ? `Yes, ${where}: ${CLAIM.b} was faster in all ${ratios.length} comparisons.`
      : slower === ratios.length
        ? `No, ${where}: ${CLAIM.b} was slower in all ${ratios.length} comparisons.`
        : `In part, ${where}: ${CLAIM.b} was faster in ${faster} of ${ratios.length} comparisons, slower in ${slower}${unclear > 0 ? `, no clear difference in ${unclear}` : ''}.`;
  const adapter = record.profile.adapter;
  const software = adapter?.isSoftware
    ? `<p class="warn">Software adapter (${h(adapter.description || adapter.device || adapter.vendor)}): these numbers describe a CPU rasterizer, not a GPU.</p>`
    : '';
  const honest = oneProcess
    ? `<p class="meta">Each speedup is a median of interleaved pairs in this one process; its 95% CI says how precisely this process measured it. Between processes a ratio moves by more than that: this is what this process saw, not a verdict across runs (${acrossProcesses(screen.articleRun)}).</p>`
    : '<p class="meta">Ratios measured in several processes: the CI is over the per-process values.</p>';
  return [
    `<section id="claim" class="answer">${heading}`,
    `<p class="lead">${h(lead)}</p>`,
    claim,
    software,
    table(['scenario', 'compared', 'speedup', '95% CI', `what it says (${CLAIM.b} against ${CLAIM.a})`], claimRows(ratios), ' class="claim"'),
    honest,
    ratioChart(chart),
    '</section>',
  ].join('\n');
}

/** Answer: what the run's own ratios say (a user's perf files, the flag questions), each with its CI sentence. */
function ownRatiosAnswer(screen: FirstScreen, comparison: Comparison | null, n: number, chart: RenderedChart | undefined): string {
  const ratios = screen.ownRatios;
  // Beside its baseline when there is one: information (one process), the regression answer says what gates.
  const verdicts = comparison && !comparison.refused ? new Map(comparison.verdicts.filter((v) => v.current).map((v) => [v.id, v])) : null;
  const besideBaseline = (m: Metric) => {
    const v = verdicts?.get(m.id);
    return verdicts ? [td(v?.baseline ? formatValue(v.baseline) : 'none', 'num'), td(v ? relativeChange(v) : '', 'num')] : [];
  };
  const others = screen.answers.includes('claim');
  const heading = `<h2>${n}. What do this run's ${others ? 'other ' : ''}ratios say?</h2>`;
  const [only] = ratios;
  const count = (d: Direction) => ratios.filter((m) => ciDirection(m) === d).length;
  const lead =
    ratios.length === 1 && only
      ? `${only.id}: ${formatValue(only)}${only.ci ? ` ${formatCI(only)}` : ''}, ${ratioSentence(only)}.`
      : `${ratios.length} ratios, each as far as its 95% CI goes: ${[
          count('faster') > 0 ? `${count('faster')} above 1` : '',
          count('slower') > 0 ? `${count('slower')} below 1` : '',
          count('unclear') > 0 ? `${count('unclear')} not clearly different from 1` : '',
        ]
          .filter(Boolean)
          .join(', ')}.`;
  const rows = ratios.map((m) => {
    const pair = m.labels?.a && m.labels.b ? `${m.labels.b} vs ${m.labels.a}` : '';
    return [
      td(m.scenario),
      `<td><a href="#scenario-${h(m.scenario)}"><code>${h(m.id)}</code></a>${pair ? `<div class="labels">${h(pair)}</div>` : ''}</td>`,
      ...ratioCells(m),
      ...besideBaseline(m),
      td(ratioSentence(m), pair ? `claim-${ciDirection(m)}` : ''),
    ];
  });
  const head = ['scenario', 'ratio', 'value', '95% CI', ...(verdicts ? ['baseline', 'change'] : []), 'what it says'];
  const oneProcess = ratios.every((m) => (m.processes?.length ?? 0) < 2);
  const honest = oneProcess
    ? `<p class="meta">A paired ratio is the median of time(a) / time(b) over interleaved pairs in this one process (above 1: b was faster); its 95% CI says how precisely this process measured it. Between processes a ratio moves by more than that: this is what this process saw, not a verdict across runs (${acrossProcesses(screen.articleRun)}).</p>`
    : '<p class="meta">Ratios measured in several processes: the CI is over the per-process values.</p>';
  return [
    `<section id="ratios" class="answer">${heading}`,
    `<p class="lead">${h(lead)}</p>`,
    table(head, rows, ' class="claim own-ratios"'),
    honest,
    ratioChart(chart),
    '</section>',
  ].join('\n');
}

/** '1 error', '2 errors'. */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Answer: did anything regress against the baseline: gating verdicts and the run's errors only. */
function regressionAnswer(record: RunRecord, recordPath: string | null, comparison: Comparison | null, screen: FirstScreen, n: number): string {
  const heading = `<h2>${n}. Did anything regress against the baseline?</h2>`;
  const errorsLine =
    record.errors.length > 0
      ? `<p class="verdict-regressed">The run has ${count(record.errors.length, 'error')}, so it fails whatever its metrics say: <a href="#errors">see the errors</a>.</p>`
      : '';
  const wrap = (...parts: string[]) => `<section id="regressions" class="answer">${heading}${parts.join('\n')}</section>`;
  if (!comparison) {
    const command = screen.articleRun ? 'npm run perf:baseline --' : 'npx gtp baseline';
    const accept = `Accept a run as this profile's baseline with <code>${command} ${h(recordPath ?? '<run record>')}</code>.`;
    return wrap('<p class="lead">No baseline for this profile: nothing compared.</p>', `<p class="meta">${accept}</p>`, errorsLine);
  }
  if (comparison.refused) return wrap(`<p class="lead verdict-missing">Baseline comparison refused: ${h(comparison.refused)}.</p>`, errorsLine);
  // Metrics of scenarios this run did not select are not judged, as the console counts them (summaryLine): not "failing" the count.
  const unselected = (v: Verdict) => v.verdict === 'missing' && v.baseline !== null && !ranScenario(record.selection, v.baseline.scenario);
  const notSelected = comparison.verdicts.filter((v) => v.gates && unselected(v)).length;
  const gating = comparison.verdicts.filter((v) => v.gates && !unselected(v));
  const regressed = gating.filter((v) => v.verdict === 'regressed');
  const missing = gating.filter((v) => v.verdict === 'missing');
  const inconclusive = gating.filter((v) => v.verdict === 'inconclusive');
  const passed = gating.filter((v) => v.verdict === 'pass' || v.verdict === 'improved').length;
  const crossProcess = gating.filter((v) => v.process).length;
  const what = `exact counts must equal the baseline, quality figures stay within their bounds${crossProcess > 0 ? `, ${crossProcess} ratios judged across processes` : ''}`;
  const against = `baseline ${h(comparison.baselineProfile)} (${h(comparison.scale)} scale)`;
  const failed = comparison.exitCode !== 0;
  const lead = failed
    ? `<p class="lead verdict-regressed">Yes: ${count(regressed.length, 'gating figure')} regressed against ${against}${record.errors.length > 0 ? `, and the run has ${count(record.errors.length, 'error')}` : ''}; exit ${comparison.exitCode}.</p>`
    : `<p class="lead verdict-pass">No: ${passed !== gating.length ? `${passed} of ${gating.length} gating figures pass` : passed === 1 ? 'the one gating figure passes' : `all ${passed} gating figures pass`} against ${against}${inconclusive.length > 0 ? `, ${inconclusive.length} inconclusive` : ''}${notSelected > 0 ? `; ${notSelected} more of the baseline's not judged: their scenarios were not selected` : ''}; exit ${comparison.exitCode}.</p>`;
  const list =
    regressed.length > 0
      ? table(
          ['metric', 'baseline', 'this run', 'change', 'why'],
          regressed.map((v) => [
            `<td><a href="#scenario-${h(v.current?.scenario ?? '')}"><code>${h(v.id)}</code></a></td>`,
            td(v.baseline ? formatValue(v.baseline) : '', 'num'),
            td(v.current ? formatValue(v.current) : '', 'num'),
            td(relativeChange(v), 'num'),
            td(v.reason),
          ]),
          ' class="regressions"',
        )
      : '';
  const gone = failed && missing.length > 0 ? `<p>In the baseline, not in this run: ${missing.map((v) => `<code>${h(v.id)}</code>`).join(', ')}.</p>` : '';
  const info = (kind: Verdict['kind']) => comparison.verdicts.filter((v) => v.kind === kind && !v.gates && !v.process && v.current && v.baseline).length;
  const ratios = info('ratio');
  const times = info('time');
  const notJudged =
    ratios + times > 0
      ? ` Not judged: ${[ratios > 0 ? `${count(ratios, 'ratio')} measured in one process` : '', times > 0 ? `${count(times, 'absolute time')}` : ''].filter(Boolean).join(' and ')}, information beside their baseline in the scenario tables (${acrossProcesses(screen.articleRun).replace('judges across', 'judges ratios across')}).`
      : '';
  const how = `<p class="meta">Gating: ${h(what)}.${notJudged}</p>`;
  return wrap(lead, errorsLine, list, gone, how, ...comparison.notes.map((n) => `<p class="meta">${h(n)}</p>`));
}

/** Answer: how far each strategy is from the device's limit, as one small chart and its extremes in words (a run with limits only). */
function limitAnswer(record: RunRecord, chart: RenderedChart, n: number): string {
  const heading = `<h2>${n}. How far is each strategy from the device's limit?</h2>`;
  const rows = limitRows(record);
  const sorted = [...rows].sort((x, y) => x.times - y.times);
  const say = (r: LimitRow) => `${r.strategy} in ${r.group} at ${significant(r.times, 2)}x its limit`;
  const lead = `Closest: ${say(sorted[0]!)}; farthest: ${say(sorted.at(-1)!)}.`;
  // Which of the three references binds (the API's rate, the host copy, the PCIe link), said of
  // the closest strategy whose limit rests on an upload rate (training's is a measured resident step): issue 35.
  const against = sorted.flatMap((r) => {
    const refs = limitReferences(record, r.group);
    return refs ? [`${say(r)}: ${refs.replace(/^the limit rests on/, 'a limit resting on')}.`] : [];
  })[0];
  const binds = against ? `<p class="references">${h(against)}</p>` : '';
  // The chart beside its reading: the answer's heading says what the chart's title would.
  return `<section id="limits" class="answer">${heading}<div class="beside">${figure(chart, false)}<div><p class="lead">${h(lead)}</p>${binds}<p class="meta">${h(chart.caption)}</p></div></div></section>`;
}

/**
 * Answer, for a run with stage figures but no device limits (a backend that cannot measure
 * them): each strategy's largest stage, in words, and a link to the stage chart.
 */
function stagesAnswer(record: RunRecord, n: number): string {
  const heading = `<h2>${n}. Where does the time go?</h2>`;
  const byKey = new Map<string, Metric[]>();
  for (const m of stageMetrics(record, isStackedStage)) {
    const key = `${m.labels!.strategy ?? '?'} in ${stageGroup(m)}`;
    byKey.set(key, [...(byKey.get(key) ?? []), m]);
  }
  const said = [...byKey].map(([key, ms]) => {
    const largest = ms.reduce((x, y) => (y.value > x.value ? y : x));
    const sum = ms.reduce((t, m) => t + m.value, 0);
    return `${key}: ${largest.labels!.stage} ${significant(largest.value)} ms of ${significant(sum)} ms`;
  });
  const shown = said.slice(0, 6);
  const lead = `Largest stage of each strategy: ${shown.join('; ')}${said.length > shown.length ? `; and ${said.length - shown.length} more in the stage table` : ''}.`;
  return `<section id="stages" class="answer">${heading}<p class="lead">${h(lead)}</p><p class="meta">Each stage synced on its own (so each holds one sync floor); this backend measured no device limit to set them against. <a href="#chart-stages">The stage chart</a> and the scenario tables have every stage.</p></section>`;
}

function errors(record: RunRecord): string {
  if (record.errors.length === 0) return '';
  const items = record.errors.map((e) => `<li><b>[${h(e.scenario)}] ${h(e.test)}</b><pre>${h(e.message)}</pre></li>`).join('');
  return `<section id="errors" class="errors"><h2>Errors (${record.errors.length}): the run fails whatever its metrics say</h2><ul>${items}</ul></section>`;
}

/** The scenarios the run did not measure, each with why (a missing tool): not failures, not figures. */
function skippedSection(record: RunRecord): string {
  const skipped = record.skipped ?? [];
  if (skipped.length === 0) return '';
  return `<section id="skipped"><h2>Skipped (${skipped.length}): not measured, not failed</h2><ul class="notes">${skipped.map((s) => `<li>${h(skippedLine(s))}</li>`).join('')}</ul></section>`;
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

/** One chart with its title and its caption (what was measured, with which clock), or bare where the page says both beside it. */
function figure(c: RenderedChart, captioned = true): string {
  const caption = captioned ? `<figcaption><span class="title">${h(c.title)}</span><span class="caption">${h(c.caption)}</span></figcaption>` : '';
  // vega's SVG is generated from the run's numbers and labels by vega itself (text escaped by its SVG renderer).
  return `<figure class="chart" data-chart="${h(c.name)}" id="chart-${h(c.name)}" aria-label="${h(`${c.title}: ${c.caption}`)}">${caption}${c.svg}</figure>`;
}

function chartsSection(charts: readonly RenderedChart[], unavailable: string | null): string {
  if (unavailable) return `<section id="charts"><h2>Charts</h2><p class="note">${h(unavailable)}</p></section>`;
  if (charts.length === 0) return '';
  return `<section id="charts"><h2>Charts</h2><div class="grid">${charts.map((c) => figure(c)).join('\n')}</div></section>`;
}

const labelText = (m: Metric) =>
  Object.entries(m.labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

/**
 * A verdict's word for the tables: gating verdicts and those judged on per-process values say
 * it; a one-process ratio or an absolute time is information beside its baseline, never
 * 'regressed' or 'improved'.
 */
function verdictCell(verdict: Verdict | undefined): string {
  if (!verdict) return td('no baseline');
  const judged = verdict.gates || verdict.process !== undefined || verdict.verdict === 'new' || verdict.verdict === 'missing';
  if (judged) return `<td class="verdict-${verdict.verdict}" title="${h(verdict.reason)}">${h(verdictLabel(verdict))}</td>`;
  const why =
    verdict.kind === 'ratio'
      ? `measured in one process: information beside its baseline, not a verdict (${commandLine('ab', '--base <ref>')} judges ratios across processes)`
      : 'an absolute time: information beside its baseline, not a verdict';
  return `<td class="verdict-info" title="${h(why)}">info</td>`;
}

function metricRow(m: Metric, verdict: Verdict | undefined): string[] {
  const baseline = verdict?.baseline ? formatValue(verdict.baseline) : '';
  return [
    // The detail (what was measured and how) folds away: a table of 60 figures stays readable.
    `<td class="metric"><code>${h(m.id)}</code>${m.labels ? `<div class="labels">${h(labelText(m))}</div>` : ''}${m.detail ? `<details><summary>how</summary><div class="detail">${h(m.detail)}</div></details>` : ''}</td>`,
    td(formatValue(m), 'num'),
    td(formatCI(m), 'num'),
    td(m.n === undefined ? '' : String(m.n), 'num'),
    td(m.kind + (m.bound && (m.bound.min !== undefined || m.bound.max !== undefined) ? ` [${m.bound.min ?? '-inf'}, ${m.bound.max ?? 'inf'}]` : '')),
    td(baseline, 'num'),
    td(verdict ? relativeChange(verdict) : '', 'num'),
    verdictCell(verdict),
  ];
}

function scenarioSections(record: RunRecord, comparison: Comparison | null, summary: RunSummary): string {
  const verdicts = new Map((comparison?.verdicts ?? []).filter((v) => v.current).map((v) => [v.id, v]));
  const nav = `<nav>${summary.scenarios.map(({ id: s }) => `<a href="#scenario-${h(s)}">${h(s)}</a>`).join('')}</nav>`;
  const sections = summary.scenarios.map(({ id: s, headline }) => {
    const metrics = record.metrics.filter((m) => m.scenario === s);
    const failed = record.errors.filter((e) => e.scenario === s);
    const rows = metrics.map((m) => metricRow(m, verdicts.get(m.id)));
    const head = ['metric', 'value', '95% CI', 'n', 'kind', 'baseline', 'change', 'verdict'];
    return [
      `<section class="scenario" id="scenario-${h(s)}" data-scenario="${h(s)}"><h3>${h(s)}</h3>`,
      // The scenario's line, as the console prints it.
      headline ? `<p class="meta headline">${h(headline.text)}</p>` : '',
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
async function renderHtml({ record, recordPath, comparison }: ReportInput): Promise<string> {
  const charts = await renderCharts(record);
  const unavailable = (await chartLibraries()) ? null : CHARTS_MISSING;
  const summary = runSummary(record, comparison);
  const screen = firstScreen(record, summary);
  const limits = charts.find((c) => c.name === 'limits');
  const ratios = screen.ratioChartIn ? charts.find((c) => c.name === 'ratios') : undefined;
  const chartIn = (answer: Answer) => (screen.ratioChartIn === answer ? ratios : undefined);
  const answer = (a: Answer, n: number): string => {
    switch (a) {
      case 'claim':
        return claimAnswer(record, summary, screen, n, chartIn('claim'));
      case 'ratios':
        return ownRatiosAnswer(screen, comparison, n, chartIn('ratios'));
      case 'regressions':
        return regressionAnswer(record, recordPath, comparison, screen, n);
      case 'limits':
        return limits ? limitAnswer(record, limits, n) : '';
      case 'stages':
        return stagesAnswer(record, n);
    }
  };
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
    // The questions a reader comes with, answered first and in this order: those the run has something for.
    '<div id="at-a-glance">',
    ...screen.answers.map((a, i) => answer(a, i + 1)),
    '</div>',
    errors(record),
    skippedSection(record),
    notes(record),
    // A chart the first screen shows is not drawn twice.
    chartsSection(
      charts.filter((c) => c !== limits && c !== ratios),
      unavailable,
    ),
    scenarioSections(record, comparison, summary),
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
