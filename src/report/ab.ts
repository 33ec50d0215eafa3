import Table from 'cli-table3';
import type { ProcessVerdict } from '../results/process-verdict.js';
import type { AbResult } from '../runner/ab.js';
import { significant } from './format.js';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const value = (v: ProcessVerdict, x: number) => (v.kind === 'ratio' ? `${x.toFixed(3)}x` : `${significant(x)} ms`);
const change = (v: ProcessVerdict) => `${pct(v.change)} [${pct(v.ci[0])}, ${pct(v.ci[1])}]`;

/** The A/B as a terminal table: metric, base, head, change with its interval, p, verdict. */
export function renderAb(r: AbResult): string {
  const table = new Table({ head: ['metric', 'base', 'head', 'change [interval]', 'p', 'verdict'], style: { head: [], border: [] } });
  for (const v of r.verdicts) table.push([v.id, value(v, v.base), value(v, v.head), change(v), v.p.toPrecision(2), v.verdict]);
  const confidence = r.verdicts[0] ? `${Math.round(100 * r.verdicts[0].confidence)}%` : '';
  return [
    `A/B: base ${r.base} vs head ${r.head}; ${r.processes[0]} + ${r.processes[1]} processes (ABBA order), scenarios ${r.scenarios.join(', ')}; ${r.minutes.toFixed(1)} min`,
    `Geometric means of one value per process; change = head/base - 1 with its ${confidence} interval from an exact permutation test on per-process logs.`,
    table.toString(),
    ...r.errors.map((e) => `ERROR ${e}`),
    `Verdicts: ${['regressed', 'improved', 'inconclusive', 'pass'].map((k) => `${r.verdicts.filter((v) => v.verdict === k).length} ${k}`).join(', ')}; exit ${r.exitCode}.`,
  ].join('\n');
}

/** The A/B as Markdown for a CI job summary. */
export function abMarkdown(r: AbResult): string {
  const icon: Record<ProcessVerdict['verdict'], string> = { pass: '✅', regressed: '❌', improved: '⬆️', inconclusive: '❔' };
  return [
    `### gpu-transfer-perf A/B: ${r.head} vs ${r.base}`,
    '',
    `${r.processes[0]} + ${r.processes[1]} processes, ABBA order; exact permutation test on per-process logs.`,
    '',
    '| metric | base | head | change [interval] | p | verdict |',
    '|---|---|---|---|---|---|',
    ...r.verdicts.map(
      (v) => `| \`${v.id}\` | ${value(v, v.base)} | ${value(v, v.head)} | ${change(v)} | ${v.p.toPrecision(2)} | ${icon[v.verdict]} ${v.verdict} |`,
    ),
    '',
    ...r.errors.map((e) => `> ERROR ${e.replace(/\|/g, '\\|')}`),
    '',
  ].join('\n');
}
