import type { Comparison } from '../results/compare.js';
import { type RunRecord, skippedLine } from '../results/schema.js';
import type { Exporter } from './exporter.js';
import type { VerdictName } from '../results/verdict.js';
import { errorLines, informationOnly, relativeChange, saysMore, summaryLine, valueWithCI, verdictLabel } from './comparison.js';

const mdCell = (text: string) => text.replace(/\|/g, '\\|');

/** The comparison as Markdown, for CI job summaries. */
function comparisonMarkdown(c: Comparison, selection: RunRecord['selection']): string {
  const errors = errorLines(c).map((l) => `> ${mdCell(l.trim())}`);
  if (c.refused) return [`### gpu-transfer-perf`, '', ...errors, '', `Baseline comparison refused: ${mdCell(c.refused)}.`, ''].join('\n');
  const icon: Record<VerdictName, string> = { pass: '✅', regressed: '❌', improved: '⬆️', inconclusive: '❔', new: '🆕', missing: '⚠️' };
  // A ratio or time of one process is information (its change, no verdict word), as on the console.
  const rows = c.verdicts.map(
    (v) =>
      `| \`${v.id}\` | ${mdCell(valueWithCI(v.baseline))} | ${mdCell(valueWithCI(v.current))} | ${relativeChange(v)} | ${informationOnly(v) ? 'ℹ️' : icon[v.verdict]} ${verdictLabel(v)} |`,
  );
  const reasons = c.verdicts.filter(saysMore).map((v) => `- \`${v.id}\` ${verdictLabel(v)}: ${mdCell(v.reason)}`);
  return [
    `### gpu-transfer-perf: ${c.runProfile} vs baseline ${c.baselineProfile} (${c.scale})`,
    '',
    ...errors,
    '',
    '| metric | baseline | new | change | verdict |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...reasons,
    ...c.notes.map((n) => `> ${mdCell(n)}`),
    '',
    summaryLine(c, selection),
    '',
  ].join('\n');
}

/** Markdown for CI job summaries (`--markdown FILE`, $GITHUB_STEP_SUMMARY). */
export const markdownExporter: Exporter = {
  format: 'markdown',
  render({ record, comparison }) {
    // Scenarios not measured (a missing tool) are said in either case, after the rest.
    const skipped = (record.skipped ?? []).map((s) => `> ${mdCell(skippedLine(s))}\n`).join('');
    if (comparison) return comparisonMarkdown(comparison, record.selection) + (skipped ? `\n${skipped}` : '');
    return `### gpu-transfer-perf: ${record.profile.id} (${record.scale})\n\nNo baseline for this profile: nothing compared.\n${skipped ? `\n${skipped}` : ''}`;
  },
};
