import Table from 'cli-table3';
import { diffString } from 'json-diff';
import { styleText } from 'node:util';
import { failingVerdicts, ranScenario, type Comparison } from '../results/compare.js';
import type { Metric, RunRecord } from '../results/schema.js';
import { beyondBand, flagged, informational, type Verdict, type VerdictName } from '../results/verdict.js';
import { formatCI, formatValue } from './format.js';
import { commandLine } from '../base/commands.js';

type Color = Parameters<typeof styleText>[0];
const COLOR: Record<VerdictName, Color> = {
  pass: 'green',
  regressed: 'red',
  improved: 'cyan',
  inconclusive: 'yellow',
  new: 'blue',
  missing: 'magenta',
};

/** A ratio or time shown as information, not judged (`informational`): no verdict word, never failing. */
export function informationOnly(v: Verdict): boolean {
  return informational(v);
}

/** A verdict's colour: information is grey. */
function colorOf(v: Verdict): Color {
  return informationOnly(v) ? 'gray' : COLOR[v.verdict];
}

export function valueWithCI(m: Metric | null): string {
  if (!m) return '-';
  const ci = formatCI(m);
  return ci ? `${formatValue(m)} ${ci}` : formatValue(m);
}

/** Relative change of the new value against the baseline ('+12.3%'), or '' when not meaningful. */
export function relativeChange(v: Pick<Verdict, 'baseline' | 'current'>): string {
  if (!v.baseline || !v.current) return '';
  if (v.baseline.value === v.current.value) return '0';
  if (v.baseline.value === 0) return `${v.current.value > 0 ? '+' : ''}${v.current.value}`;
  const change = v.current.value / v.baseline.value - 1;
  return `${change >= 0 ? '+' : ''}${(100 * change).toFixed(1)}%`;
}

/**
 * The verdict as a report shows it. A ratio or time that nothing judged is information whatever
 * its in-process CI did (`informational`): 'info (one process)' for a ratio, 'info (not judged)'
 * for a time. A judged verdict keeps its word, '(info)' when it does not gate.
 */
export function verdictLabel(v: Verdict): string {
  if (informational(v)) return v.kind === 'ratio' ? 'info (one process)' : 'info (not judged)';
  return v.gates ? v.verdict : `${v.verdict} (info)`;
}

/** 'baseline 0.777x, now 0.288x (-63.0%)': what a flagged or failing metric is printed with, before its reason. */
export function changeLine(v: Verdict): string {
  if (!v.baseline || !v.current) return '';
  return `baseline ${formatValue(v.baseline)}, now ${formatValue(v.current)} (${relativeChange(v)})`;
}

/** Whether a reason line is worth printing: a judged verdict that did not pass, or anything flagged (information beyond its band included). */
export function saysMore(v: Verdict): boolean {
  return (v.verdict !== 'pass' && v.verdict !== 'new' && !informationOnly(v)) || flagged(v);
}

/** The exact metrics that differ, as a json-diff of { id: value } maps; '' when none differ. */
function exactDiff(comparison: Comparison, color: boolean): string {
  const exact = comparison.verdicts.filter((v) => v.kind === 'exact' && v.verdict !== 'pass');
  if (exact.length === 0) return '';
  const side = (pick: (v: Verdict) => Metric | null) => Object.fromEntries(exact.flatMap((v) => (pick(v) ? [[v.id, pick(v)!.value]] : [])));
  return diffString(
    side((v) => v.baseline),
    side((v) => v.current),
    { color },
  );
}

/** The comparison as a terminal table (coloured when `color`), with the exact-metric diff and notes. */
export function renderComparison(c: Comparison, color: boolean): string {
  const errors = errorLines(c);
  if (c.refused) return [...errors, `Baseline comparison refused: ${c.refused}.`].join('\n');
  const paint = (v: Verdict, text: string) => (color ? styleText(colorOf(v), text) : text);
  // Shown row by row: what can fail the run and did not pass, and every ratio (the headline
  // figures, informational or not). The rest is counted in one line each (issue 8: a fresh
  // machine must not see a wall of informational verdicts on absolute times).
  const shown = c.verdicts.filter((v) => v.current !== null && ((v.gates && v.verdict !== 'pass') || v.kind === 'ratio' || flagged(v)));
  const table = new Table({ head: ['metric', 'baseline', 'new', 'change', 'verdict'], style: { head: [], border: [] } });
  for (const v of shown) table.push([v.id, valueWithCI(v.baseline), valueWithCI(v.current), relativeChange(v), paint(v, verdictLabel(v))]);
  const lines = [...errors, `Compared with baseline ${c.baselineProfile} (${c.scale} scale):`];
  if (shown.length > 0) lines.push(table.toString());
  for (const v of shown.filter(saysMore)) lines.push(`  ${paint(v, verdictLabel(v))} ${v.id}: ${changeLine(v)}: ${v.reason}`);
  const missingGating = c.verdicts.filter((v) => v.verdict === 'missing' && v.gates);
  for (const v of missingGating.filter((v) => c.exitCode !== 0 && (v.baseline?.kind === 'exact' || v.baseline?.kind === 'quality')))
    lines.push(`  ${paint(v, 'missing')} ${v.id}: ${v.reason}`);
  const count = (pick: (v: Verdict) => boolean) => c.verdicts.filter(pick).length;
  const passed = count((v) => (v.kind === 'exact' || v.kind === 'quality') && v.verdict === 'pass');
  const notJudged = c.verdicts.filter((v) => v.kind === 'time' && informational(v));
  const times = notJudged.length;
  const timesOut = notJudged.filter(beyondBand).length;
  const timesJudged = c.verdicts.some((v) => v.kind === 'time' && v.gates);
  const notRun = count((v) => v.current === null);
  const added = count((v) => v.verdict === 'new' && v.kind !== 'ratio');
  if (passed > 0) lines.push(`${passed} exact and quality metrics equal to the baseline or within their bounds.`);
  if (times > 0) lines.push(`${timesLine(times, timesOut, timesJudged)}.`);
  if (notRun > 0)
    lines.push(`${notRun} baseline metrics not in this run${c.verdicts.some((v) => v.current === null && v.gates) ? '' : ' (scenarios not selected)'}.`);
  if (added > 0) lines.push(`${added} metrics not in the baseline yet (accept a new baseline to judge them).`);
  const diff = exactDiff(c, color);
  if (diff && c.verdicts.some((v) => v.kind === 'exact' && v.verdict === 'regressed'))
    lines.push('Exact metrics that changed (baseline -> new):', diff.trimEnd());
  for (const n of c.notes) lines.push(`NOTE: ${n}`);
  lines.push(summaryLine(c));
  return lines.join('\n');
}

/**
 * The comparison as the default console shows it: only what fails the run or needs action
 * (failing verdicts first, then judged verdicts that are open: inconclusive or improved across
 * processes), at most `limit` lines of them, the notes, and the summary line. The run's errors
 * are the caller's to show (the console report lists them once).
 */
export function renderComparisonBrief(c: Comparison, selection: RunRecord['selection'], color: boolean, limit = 12): string {
  if (c.refused) return `Baseline comparison refused: ${c.refused}.`;
  const paint = (v: Verdict, text: string) => (color ? styleText(colorOf(v), text) : text);
  const failing = failingVerdicts(c.verdicts, selection);
  const open = c.verdicts.filter((v) => !failing.includes(v) && ((v.gates && (v.verdict === 'inconclusive' || v.verdict === 'improved')) || flagged(v)));
  const attention = [...failing, ...open];
  const lines = [
    `Compared with baseline ${c.baselineProfile} (${c.scale} scale)${attention.length > 0 ? `: ${failing.length} failing${open.length > 0 ? `, ${open.length} to look at` : ''}` : '.'}`,
  ];
  for (const v of attention.slice(0, limit))
    lines.push(`  ${paint(v, verdictLabel(v))} ${v.id}: ${v.baseline && v.current ? `${changeLine(v)}: ` : ''}${v.reason}`);
  if (attention.length > limit) lines.push(`  ... and ${attention.length - limit} more (${commandLine('compare')} lists them all; the HTML report too)`);
  for (const n of c.notes) lines.push(`NOTE: ${n}`);
  lines.push(summaryLine(c, selection));
  return lines.join('\n');
}

/** The run's own errors, first: a run with errors fails whatever its metrics say. */
export function errorLines(c: Pick<Comparison, 'errors'>): string[] {
  if (c.errors.length === 0) return [];
  return [
    `The run has ${c.errors.length} error(s), so it fails whatever its metrics say:`,
    ...c.errors.map((e) => `  [${e.scenario}] ${e.test}: ${e.message.split('\n')[0]}`),
  ];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How the absolute times that were not judged are counted: how many, how many beyond their band, and what would judge them. */
function timesLine(times: number, beyond: number, judgedSome: boolean): string {
  const out = beyond > 0 ? ` (${beyond} beyond their tolerance)` : '';
  return judgedSome
    ? `${plural(times, 'absolute time')} not judged${out}: one process on each side, nothing to judge them with`
    : `${plural(times, 'absolute time')} not judged${out}: information; --gate-timing (PERF_GATE_TIMING=1) judges and gates them across processes of this profile`;
}

/**
 * One line: how many of each verdict among those judged (exact, quality, ratios and times judged
 * across processes), how many ratios and times were information (not judged, not counted), what
 * gates, the exit code. Given the run's selection, metrics of scenarios it did not select are
 * counted as such, not as missing. What would make information gate is said once, in the notes.
 */
export function summaryLine(c: Comparison, selection?: RunRecord['selection']): string {
  const info = c.verdicts.filter(informational);
  const notSelected = (v: Verdict) => selection !== undefined && v.verdict === 'missing' && v.baseline !== null && !ranScenario(selection, v.baseline.scenario);
  const counts = new Map<VerdictName, number>();
  for (const v of c.verdicts) if (!informational(v) && !notSelected(v)) counts.set(v.verdict, (counts.get(v.verdict) ?? 0) + 1);
  const skipped = c.verdicts.filter(notSelected).length;
  const parts = [...[...counts.entries()].map(([k, n]) => `${n} ${k}`), ...(skipped > 0 ? [`${skipped} of scenarios not selected`] : [])].join(', ');
  const ratios = info.filter((v) => v.kind === 'ratio').length;
  // Across CPUs with no measured allowance ratios are information for the CPU's sake, whatever their processes.
  const whyRatios = c.otherHost?.allowance === null ? 'not gated across CPUs' : 'of one process';
  const what = [ratios > 0 ? `${plural(ratios, 'ratio')} ${whyRatios}` : '', info.length > ratios ? plural(info.length - ratios, 'absolute time') : '']
    .filter(Boolean)
    .join(' and ');
  const oneProcess = info.length === 0 ? '' : `; ${what}: information, not judged`;
  const judged = (kind: Verdict['kind']) => c.verdicts.some((v) => v.kind === kind && v.process && v.gates);
  const gates = [
    'exact and quality metrics',
    judged('ratio') ? 'ratios judged across processes' : '',
    judged('time') ? 'absolute times judged across processes (--gate-timing)' : '',
  ].filter(Boolean);
  const errors = c.errors.length > 0 ? `${c.errors.length} run error(s); ` : '';
  return `Verdicts: ${errors}${parts || 'none'}${oneProcess}; ${gates.join(', ')} gate; exit ${c.exitCode}.`;
}
