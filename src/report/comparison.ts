import Table from 'cli-table3';
import { diffString } from 'json-diff';
import { styleText } from 'node:util';
import type { Comparison } from '../results/compare.js';
import type { Metric } from '../results/schema.js';
import type { Verdict, VerdictName } from '../results/verdict.js';
import { formatCI, formatValue } from './format.js';

type Color = Parameters<typeof styleText>[0];
const COLOR: Record<VerdictName, Color> = {
  pass: 'green',
  regressed: 'red',
  improved: 'cyan',
  inconclusive: 'yellow',
  new: 'blue',
  missing: 'magenta',
};

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

export function verdictLabel(v: Verdict): string {
  return v.gates ? v.verdict : `${v.verdict} (info)`;
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
  const paint = (v: Verdict, text: string) => (color ? styleText(COLOR[v.verdict], text) : text);
  // Shown row by row: what can fail the run and did not pass, and every ratio (the headline
  // figures, informational or not). The rest is counted in one line each (issue 8: a fresh
  // machine must not see a wall of informational verdicts on absolute times).
  const shown = c.verdicts.filter((v) => v.current !== null && ((v.gates && v.verdict !== 'pass') || v.kind === 'ratio'));
  const table = new Table({ head: ['metric', 'baseline', 'new', 'change', 'verdict'], style: { head: [], border: [] } });
  for (const v of shown) table.push([v.id, valueWithCI(v.baseline), valueWithCI(v.current), relativeChange(v), paint(v, verdictLabel(v))]);
  const lines = [...errors, `Compared with baseline ${c.baselineProfile} (${c.scale} scale):`];
  if (shown.length > 0) lines.push(table.toString());
  for (const v of shown.filter((v) => v.verdict !== 'pass' && v.verdict !== 'new')) lines.push(`  ${paint(v, verdictLabel(v))} ${v.id}: ${v.reason}`);
  const missingGating = c.verdicts.filter((v) => v.verdict === 'missing' && v.gates);
  for (const v of missingGating.filter((v) => c.exitCode !== 0 && (v.baseline?.kind === 'exact' || v.baseline?.kind === 'quality')))
    lines.push(`  ${paint(v, 'missing')} ${v.id}: ${v.reason}`);
  const count = (pick: (v: Verdict) => boolean) => c.verdicts.filter(pick).length;
  const passed = count((v) => (v.kind === 'exact' || v.kind === 'quality') && v.verdict === 'pass');
  const times = count((v) => v.kind === 'time' && !v.gates && v.current !== null);
  const notRun = count((v) => v.current === null);
  const added = count((v) => v.verdict === 'new' && v.kind !== 'ratio');
  if (passed > 0) lines.push(`${passed} exact and quality metrics equal to the baseline or within their bounds.`);
  if (times > 0)
    lines.push(
      `${times} absolute times not judged: they differ by 50-100% between processes and machines of one kind; judge them with npm run perf:ab (same machine, one job).`,
    );
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

/** The run's own errors, first: a run with errors fails whatever its metrics say. */
export function errorLines(c: Pick<Comparison, 'errors'>): string[] {
  if (c.errors.length === 0) return [];
  return [
    `The run has ${c.errors.length} error(s), so it fails whatever its metrics say:`,
    ...c.errors.map((e) => `  [${e.scenario}] ${e.test}: ${e.message.split('\n')[0]}`),
  ];
}

/** One line: how many of each verdict, and what gates. */
export function summaryLine(c: Comparison): string {
  const counts = new Map<VerdictName, number>();
  for (const v of c.verdicts) counts.set(v.verdict, (counts.get(v.verdict) ?? 0) + 1);
  const parts = [...counts.entries()].map(([k, n]) => `${n} ${k}`).join(', ');
  const gate = c.verdicts.some((v) => (v.kind === 'ratio' || v.kind === 'time') && v.gates) ? 'timing gates (PERF_GATE_TIMING=1)' : 'timing informational';
  const errors = c.errors.length > 0 ? `${c.errors.length} run error(s); ` : '';
  return `Verdicts: ${errors}${parts || 'none'}; exact and quality metrics gate, ${gate}; exit ${c.exitCode}.`;
}
