import type { Metric, RunRecord } from '../results/schema.js';
import { ciDirection, type Direction, formatCI, formatValue, significant } from './format.js';
import { limitRows } from './stage-table.js';
import { MNIST_SPEEDUP_ID } from '../results/metric-ids.js';
import { bindingOf, groupReferences, referencesClause } from '../results/upload-references.js';

/** One scenario's headline: a figure (with its CI) and what it means, in one line. */
export interface Headline {
  readonly text: string;
  /** The figure the line leads with; null when none. */
  readonly metric: Metric | null;
}

/**
 * What a report sets right after a headline's lead figure (e.g. its baseline and change), or ''.
 * Only the lead figure gets it, so a line of several figures says which one it is about.
 */
export type Annotate = (m: Metric) => string;

/** '0.75x [0.72, 0.78]'. */
const withCI = (m: Metric) => (m.ci ? `${formatValue(m)} ${formatCI(m)}` : formatValue(m));
/** '50,176 B' (no KB: a headline has one unit). */
const bytes = (m: Metric) => `${Math.round(m.value).toLocaleString('en-US')} B`;

/** What a paired ratio (time of A / time of B) says, as far as its CI allows. */
function pairWords(m: Metric): string {
  const [a, b] = [m.labels?.a ?? 'A', m.labels?.b ?? 'B'];
  if (!m.ci) return `${b} vs ${a}`;
  const words: Record<Direction, string> = {
    faster: `${b} faster than ${a}`,
    slower: `${b} SLOWER than ${a}`,
    unclear: `no clear difference between ${b} and ${a}`,
  };
  return words[ciDirection(m)];
}

function pairLine(m: Metric, lead: (m: Metric) => string): Headline {
  return { text: `${lead(m)}: ${pairWords(m)}${m.n ? ` (${m.n} pairs)` : ''}`, metric: m };
}

/** What a scenario's headline is made from: its metrics, the record's by id, the whole record, the lead figure's rendering. */
interface Context {
  readonly ms: readonly Metric[];
  readonly find: (id: string) => Metric | undefined;
  readonly record: RunRecord;
  /** The lead figure with its CI and its annotation. */
  readonly lead: (m: Metric) => string;
}

/** Total time over the device's limit per strategy of one stage group: 'cpu-normalize 3.8x, device-normalize 3.5x'. */
function overLimit(record: RunRecord, group: string): string | null {
  const parts = limitRows(record)
    .filter((r) => r.group === group)
    .map((r) => `${r.strategy} ${r.times.toFixed(1)}x`);
  return parts.length > 0 ? parts.join(', ') : null;
}

/**
 * What a stage group's limit rests on and which reference binds (issue 35): "the limit rests on
 * WebGPU's upload rate; that rate (2.17 GB/s) is 0.034 of the Gen5 x16 link ... : the API's
 * staging path binds, not this pipeline". Null when the group's API rate or every machine bound is unknown.
 */
export function limitReferences(record: RunRecord, group: string): string | null {
  const refs = groupReferences(record.metrics, group, record.profile.backend);
  const clause = referencesClause(refs);
  // Said only beside a machine bound: without one (a software adapter's run, no doctor report beside it) the line is as it was.
  return refs.api && clause && bindingOf(refs) ? `the limit rests on ${refs.api.name}; ${clause}` : null;
}

/** The stage scenarios: how far each strategy is from the device's limit, and which reference binds. */
function stagesLine({ ms, record }: Context): Headline | null {
  const group = ms.find((m) => m.labels?.table === 'stages')?.labels?.group;
  const text = group ? overLimit(record, group) : null;
  if (!group || !text) return null;
  const refs = limitReferences(record, group);
  return { text: `time over the device's limit (1.0x: at it), ${group}: ${text}${refs ? `; ${refs}` : ''}`, metric: null };
}

/** Ratios of one kind across groups, the first as the lead: '0.85x [0.84, 0.89] at 32, 1.56x at 512'. */
function across(ms: readonly Metric[], at: (m: Metric) => string | undefined, lead: (m: Metric) => string, ci = false): string {
  return ms.map((m, i) => `${i === 0 ? lead(m) : ci ? withCI(m) : formatValue(m)} at ${at(m) ?? m.id}`).join(', ');
}

/** Built-in scenarios (perf/): what each one's line says. A user's own scenario gets `genericHeadline`. */
const BUILT_IN: Record<string, (context: Context) => Headline | null> = {
  'mnist-loader': ({ find }) => {
    const batch = find('mnist-loader.batch-bytes');
    const epoch = find('mnist-loader.batches-per-epoch');
    return batch ? { text: `${bytes(batch)} per uint8 batch${epoch ? `, ${formatValue(epoch)} per epoch` : ''}`, metric: batch } : null;
  },
  'cpu-normalize': ({ find }) => {
    const up = find('mnist-transfer.upload-bytes.cpu-normalize');
    return up ? { text: `${bytes(up)} on the wire per batch: float32, 4 bytes per pixel`, metric: up } : null;
  },
  'device-normalize': ({ find }) => {
    const up = find('mnist-transfer.upload-bytes.device-normalize');
    const cpu = find('mnist-transfer.upload-bytes.cpu-normalize');
    if (!up) return null;
    const fewer = cpu && up.value > 0 ? `: ${significant(cpu.value / up.value)}x fewer than cpu-normalize` : '';
    return { text: `${bytes(up)} on the wire per batch (uint8)${fewer}`, metric: up };
  },
  'cpu-normalize-profile': profileLine,
  'device-normalize-profile': profileLine,
  speedup: ({ find, lead }) => {
    const m = find(MNIST_SPEEDUP_ID);
    return m ? pairLine(m, lead) : null;
  },
  alternatives: ({ ms, lead }) => {
    const naive = ms.filter((m) => m.kind === 'ratio' && m.labels?.variant === 'naive-tfjs');
    return naive.length > 0 ? { text: `device-normalize vs the naive tfjs port: ${across(naive, (m) => m.labels?.batch, lead)}`, metric: naive[0]! } : null;
  },
  stages: stagesLine,
  'dtype-stages': stagesLine,
  coco: transferAndBatch,
  kinetics: transferAndBatch,
  memory: ({ find }) => {
    const raw = find('memory.bytes.raw-batch');
    const cpu = find('memory.bytes.cpu-normalized');
    const dev = find('memory.bytes.device-normalized');
    if (!raw || !cpu) return null;
    return { text: `raw uint8 batch ${bytes(raw)}; normalized ${bytes(cpu)} on the CPU${dev ? `, ${bytes(dev)} on the device` : ''}`, metric: raw };
  },
  training: ({ ms, find }) => {
    const accuracy = ms.filter((m) => m.labels?.quantity === 'held-out-accuracy').at(-1);
    const gap = find('training.loss-max-rel-diff.cpu-vs-device');
    if (!accuracy && !gap) return null;
    const parts = [
      accuracy ? `held-out accuracy ${(100 * accuracy.value).toFixed(1)}% after epoch ${accuracy.labels?.epoch ?? '?'}` : '',
      gap ? (gap.value === 0 ? 'the same losses fed either way' : `losses fed either way differ by at most ${significant(gap.value)} (relative)`) : '',
    ];
    return { text: parts.filter(Boolean).join('; '), metric: accuracy ?? gap! };
  },
  'crop-mirror-normalize': ({ ms }) => {
    const diffs = ms.filter((m) => m.id.includes('.max-abs-diff.'));
    if (diffs.length === 0) return null;
    const worst = diffs.reduce((a, b) => (b.value > a.value ? b : a));
    return { text: `${diffs.length} cases, largest |device - host reference| ${significant(worst.value)}`, metric: worst };
  },
  dtypes: ({ ms, lead }) => {
    const uint8 = ms.filter((m) => m.kind === 'ratio' && m.labels?.quantity === 'speedup-vs-float32' && m.labels.dtype === 'uint8');
    return uint8.length > 0
      ? { text: `uint8 (1 byte per element) vs float32 (4): ${across(uint8, (m) => m.labels?.batch, lead, true)}`, metric: uint8[0]! }
      : null;
  },
  sweep: ({ ms, lead }) => {
    const speedups = ms.filter((m) => m.kind === 'ratio' && m.labels?.quantity === 'speedup');
    return speedups.length > 0
      ? { text: `device-normalize vs cpu-normalize by batch: ${across(speedups, (m) => m.labels?.batch, lead)}`, metric: speedups[0]! }
      : null;
  },
  // Questions asked with flags (questions/): per shape its speedup and bytes; the folder's counts and speedups.
  shape: ({ ms, find, lead }) => {
    const speedups = ms.filter((m) => m.kind === 'ratio' && m.id.endsWith('.speedup') && m.labels?.group);
    if (speedups.length === 0) return null;
    const parts = speedups.map((m, i) => {
      const group = m.labels!.group!;
      const [host, device] = [find(`${group}.upload-bytes.cpu-normalize`), find(`${group}.upload-bytes.device-normalize`)];
      const wire =
        host && device && device.value > 0 ? `, ${bytes(device)} vs ${bytes(host)} on the wire (${(host.value / device.value).toFixed(0)}x fewer)` : '';
      return `[${group.slice('shape.'.length)}] ${i === 0 ? lead(m) : withCI(m)} ${pairWords(m)}${wire}`;
    });
    return { text: parts.join('; '), metric: speedups[0]! };
  },
  'image-folder': (context) => {
    const line = transferAndBatch(context);
    const [images, skipped] = [context.find('image-folder.images'), context.find('image-folder.skipped')];
    if (!line || !images) return line;
    // Counts per reason, from the image-folder.skipped.<reason> metrics (each lists every file in the record).
    const reasons = context.ms.filter((m) => m.id.startsWith('image-folder.skipped.')).map((m) => `${m.value} ${m.id.slice('image-folder.skipped.'.length)}`);
    const why = reasons.length > 0 ? `: ${reasons.join(', ')}` : '';
    return { ...line, text: `${images.value} images${skipped && skipped.value > 0 ? ` (${skipped.value} skipped${why})` : ''}; ${line.text}` };
  },
  'best-practices': ({ find }) => {
    const held = find('best-practices.pool.held-before-release');
    const after = find('best-practices.pool.held-after-release');
    return held && after ? { text: `tfjs buffer pool: ${bytes(held)} held, ${bytes(after)} after releasing it`, metric: after } : null;
  },
  soak: ({ ms }) => {
    const leaks = ms.filter((m) => m.kind === 'exact');
    if (leaks.length === 0) return null;
    const nonzero = leaks.filter((m) => m.value !== 0);
    return {
      text:
        nonzero.length === 0
          ? `no leak: ${leaks.length} tensor and device byte counts flat over the soak`
          : `${nonzero.map((m) => `${m.id} ${formatValue(m)}`).join(', ')}`,
      metric: nonzero[0] ?? leaks[0]!,
    };
  },
};

/** The profile scenarios: kernel time of one profiled train step (the top-10 table is in the report). */
function profileLine({ ms }: Context): Headline | null {
  const kernels = ms.find((m) => m.id.startsWith('profile.kernel-ms.'));
  return kernels ? { text: `${formatValue(kernels)} of kernels in one profiled train step (top-10 table in the report)`, metric: kernels } : null;
}

/** COCO and Kinetics: the transfer alone and the whole batch (decode included), device-normalize vs cpu-normalize. */
function transferAndBatch({ ms, lead }: Context): Headline | null {
  const transfer = ms.find((m) => m.kind === 'ratio' && m.labels?.part === 'transfer');
  const batch = ms.find((m) => m.kind === 'ratio' && m.labels?.part === 'batch');
  if (!transfer) return null;
  return { text: `transfer ${lead(transfer)}: ${pairWords(transfer)}${batch ? `; whole batch ${withCI(batch)}` : ''}`, metric: transfer };
}

/** Any scenario: its first paired ratio, else its first ratio, else its first exact figure, else its first figure. */
export function genericHeadline(ms: readonly Metric[], annotate: Annotate = () => ''): Headline | null {
  const lead = (m: Metric) => `${withCI(m)}${annotate(m)}`;
  const ratio = ms.find((m) => m.kind === 'ratio' && m.labels?.a && m.labels.b) ?? ms.find((m) => m.kind === 'ratio');
  if (ratio) return ratio.labels?.a && ratio.labels.b ? pairLine(ratio, lead) : { text: `${ratio.id} ${lead(ratio)}`, metric: ratio };
  const first = ms.find((m) => m.kind === 'exact') ?? ms.find((m) => m.kind === 'quality') ?? ms[0];
  if (!first) return null;
  const more = ms.length > 1 ? ` (and ${ms.length - 1} more figure${ms.length > 2 ? 's' : ''})` : '';
  return { text: `${first.id} ${lead(first)}${more}`, metric: first };
}

/**
 * The headline of one scenario of the run (`runSummary` in summary.ts lists them all);
 * `annotate` adds to the line's lead figure (a baseline beside it, say).
 */
export function scenarioHeadline(record: RunRecord, scenario: string, annotate: Annotate = () => ''): Headline | null {
  const byId = new Map(record.metrics.map((m) => [m.id, m]));
  const find = (id: string) => byId.get(id);
  const lead = (m: Metric) => `${withCI(m)}${annotate(m)}`;
  const ms = record.metrics.filter((m) => m.scenario === scenario);
  return BUILT_IN[scenario]?.({ ms, find, record, lead }) ?? genericHeadline(ms, annotate);
}

/** Scenarios asked with flags (`--shape`, `--image-folder`): the user's questions, not the article's sections. */
const QUESTION_SCENARIOS: readonly string[] = ['shape', 'image-folder'];

/** Whether a scenario is one of the article's built-in ones (perf/): not a flag question, not a user's own perf file. */
export const isArticleScenario = (scenario: string): boolean => Object.hasOwn(BUILT_IN, scenario) && !QUESTION_SCENARIOS.includes(scenario);

/** Where a ratio was measured, in words: one process, or K of them. */
const ratioWhere = (m: Metric) => ((m.processes?.length ?? 0) >= 2 ? `across ${m.processes!.length} processes` : 'in this process');

/**
 * What any ratio says, as far as its 95% CI allows, in one sentence: for a paired ratio (labels
 * a, b: time(a) / time(b)) which strategy was faster, else whether it lies above or below 1;
 * where it was measured and what the CI says against 1 in brackets.
 */
export function ratioSentence(m: Metric): string {
  const where = ratioWhere(m);
  const why: Record<Direction, string> = { faster: 'CI above 1', slower: 'CI below 1', unclear: m.ci ? 'CI includes 1' : 'no CI' };
  const direction = ciDirection(m);
  const [a, b] = [m.labels?.a, m.labels?.b];
  const said: Record<Direction, string> =
    a && b
      ? { faster: `${b} faster than ${a}`, slower: `${b} SLOWER than ${a}`, unclear: `no clear difference between ${b} and ${a}` }
      : { faster: 'above 1', slower: 'below 1', unclear: 'not clearly different from 1' };
  return `${said[direction]} ${where} (${why[direction]})`;
}
