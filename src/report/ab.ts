import Table from 'cli-table3';
import type { ProcessVerdict } from '../results/process-verdict.js';
import type { AbResult, BisectResult } from '../results/ab-result.js';
import { significant } from './format.js';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const value = (v: ProcessVerdict, x: number) => (v.kind === 'ratio' ? `${x.toFixed(3)}x` : `${significant(x)} ms`);
// A dagger marks a change judged adjusted for the host-state probe (results/covariate.ts).
const change = (v: ProcessVerdict) => `${pct(v.change)} [${pct(v.ci[0])}, ${pct(v.ci[1])}]${v.covariate ? ' †' : ''}`;
/** The footnote of the dagger, when any verdict carries it. */
const adjustedNote = (r: AbResult) =>
  r.verdicts.some((v) => v.covariate)
    ? [
        `† adjusted for the host's state: each process's value moved along the slope it shows against the host-state probe timed before its pairs (${r.verdicts
          .filter((v) => v.covariate)
          .map((v) => `${v.id}: slope ${v.covariate!.slope.toFixed(2)}, R² ${v.covariate!.explained.toFixed(2)}`)
          .join('; ')}); base and head show the values as measured (docs/baselines.md).`,
      ]
    : [];

/** The A/B as a terminal table: metric, base, head, change with its interval, p, verdict. */
export function renderAb(r: AbResult): string {
  const table = new Table({ head: ['metric', 'base', 'head', 'change [interval]', 'p', 'verdict'], style: { head: [], border: [] } });
  for (const v of r.verdicts) table.push([v.id, value(v, v.base), value(v, v.head), change(v), v.p.toPrecision(2), v.verdict]);
  const confidence = r.verdicts[0] ? `${Math.round(100 * r.verdicts[0].confidence)}%` : '';
  return [
    `A/B: base ${r.base} vs head ${r.head}; ${r.processes[0]} + ${r.processes[1]} processes (ABBA order), scenarios ${r.scenarios.join(', ')}; ${r.minutes.toFixed(1)} min`,
    `Geometric means of one value per process; change = head/base - 1 with its ${confidence} interval from an exact permutation test on per-process logs.`,
    table.toString(),
    ...adjustedNote(r),
    ...r.errors.map((e) => `ERROR ${e}`),
    ...(r.notes ?? []).map((n) => `NOTE: ${n}`),
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
    ...adjustedNote(r),
    ...r.errors.map((e) => `> ERROR ${e.replace(/\|/g, '\\|')}`),
    ...(r.notes ?? []).map((n) => `> NOTE: ${n}`),
    '',
  ].join('\n');
}

/**
 * A bisect as terminal lines: which metrics decide, one row per probe (commit, processes, looks,
 * outcome, the deciding verdicts with the one that decided marked, the other metrics' non-pass
 * verdicts as information), then the culprit or why none.
 */
export function renderBisect(r: BisectResult): string {
  const table = new Table({
    head: ['probe', 'commit', 'subject', 'processes', 'looks', 'outcome', 'deciding verdicts', 'information (never decides)'],
    style: { head: [], border: [] },
  });
  const line = (v: ProcessVerdict) => `${v.id} ${pct(v.change)} ${v.verdict}`;
  for (const [i, p] of r.probes.entries()) {
    const deciding = p.verdicts.map((v) => `${line(v)}${v.id === p.decidedBy ? ' (decides)' : ''}`);
    // Passing information is left out: what is shown is what a reader might take for evidence.
    const shown = p.information.filter((v) => v.verdict !== 'pass');
    const information = [...shown.slice(0, 3).map(line), ...(shown.length > 3 ? [`... ${shown.length - 3} more`] : [])];
    table.push([
      String(i + 1),
      p.commit.slice(0, 12),
      p.subject.slice(0, 40),
      `${p.processes[0]} + ${p.processes[1]}`,
      p.looks > 2 ? `${p.looks} (a third)` : String(p.looks),
      p.outcome,
      deciding.join('\n'),
      information.join('\n'),
    ]);
  }
  const follows =
    r.follows.length > 0
      ? `Deciding: ${r.follows.join(', ')} (worse at the bad end, or --metric; asked in this order, the first conclusive decides); every other metric is information.`
      : 'Deciding: every judged metric at the bad end (it was not worse, so nothing is followed).';
  const found = r.culprit
    ? `Culprit: ${r.culprit.commit.slice(0, 12)} ${r.culprit.subject} (the first commit worse than the good end; ${r.probes.length} probes for ${r.commits} commits)`
    : `Not found: ${r.reason}`;
  return [
    `Bisect: good ${r.good.slice(0, 12)}, bad ${r.bad.slice(0, 12)}; ${r.commits} first-parent commits; each probe an ABBA A/B against the good end, judged per process, each metric in its own direction; ${r.minutes.toFixed(1)} min`,
    follows,
    table.toString(),
    // A skipped probe's one error is why it was skipped (its harness did not start), not a failed measurement.
    ...r.probes.flatMap((p) => p.errors.map((e) => `${p.outcome === 'skip' ? 'SKIP' : 'ERROR'} ${p.commit.slice(0, 12)}: ${e}`)),
    found,
  ].join('\n');
}
