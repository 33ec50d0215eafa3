import Table from 'cli-table3';
import type { Metric, RunRecord } from '../results/schema.js';
import { significant } from './format.js';
import { bindingOf, groupReferences, referencesClause } from '../results/upload-references.js';

/** Stage columns in pipeline order; a table shows those its scenario measured. */
const STAGE_ORDER = ['decode', 'collate', 'host', 'upload', 'compute', 'kernels', 'input', 'train', 'sync-floor', 'total', 'limit'] as const;

/** Where each stage's figure comes from, printed under the table. */
const STAGE_NOTES: Record<string, string> = {
  decode: 'reading and decoding files, host clock (the same for both strategies)',
  collate: 'resize/letterbox and copy into one buffer, host clock (the same for both)',
  host: 'normalize/encode on the CPU, host clock',
  upload: 'host payload to resident device tensor, synced (contains one sync floor)',
  compute: 'resident tensor to model input on the device, synced (contains one sync floor)',
  kernels:
    'GPU timestamp queries of the compute stage, profiled apart (tfjs then gives each kernel its own pass and its regular dispatch, so this can exceed the compute stage)',
  input: 'inside the training loop: preparing the next batch and issuing its upload (and device normalize), host clock, no sync of its own',
  train: 'inside the training loop: issuing the train step and waiting for its loss (the device finishes the step and any upload queued before it)',
  'sync-floor': 'an empty submit and wait on the same device',
  total: 'all stages without syncs in between (what a pipeline does), synced at the end',
  limit:
    "the device's limit: sync floor + bytes at measured writeBuffer bandwidth + one pass at measured shader-copy bandwidth (computed); for training, a step with its batch already on the device (measured)",
};

/** A stage metric's group (mnist-transfer, coco, dtypes.64x1x28x28, sweep.b256): its label, or the id's first part in records made before the label. */
export function stageGroup(m: Metric): string {
  return m.labels?.group ?? m.id.split('.')[0]!;
}

/** The stage metrics of a run (labels { table: 'stages' }) whose stage `keep` accepts. */
export const stageMetrics = (record: RunRecord, keep: (stage: string | undefined) => boolean): Metric[] =>
  record.metrics.filter((m) => m.labels?.table === 'stages' && keep(m.labels.stage));

/** One strategy of one stage group against the device's limit. */
export interface LimitRow {
  readonly group: string;
  readonly strategy: string;
  /** Its pipelined total over its limit: 1 = at the limit. */
  readonly times: number;
  readonly total: Metric;
  readonly limit: Metric;
}

/** Every group and strategy with both a `total` and a `limit` stage metric (labels { table: 'stages' }), in record order. */
export function limitRows(record: RunRecord): LimitRow[] {
  const key = (m: Metric) => `${stageGroup(m)}\u0000${m.labels!.strategy}`;
  const limits = new Map(stageMetrics(record, (s) => s === 'limit').map((m) => [key(m), m]));
  return stageMetrics(record, (s) => s === 'total').flatMap((total) => {
    const limit = limits.get(key(total));
    if (!limit || !(total.value > 0) || !(limit.value > 0)) return [];
    return [{ group: stageGroup(total), strategy: total.labels!.strategy!, times: total.value / limit.value, total, limit }];
  });
}

/**
 * Under a table with a limit column: the three references of its first group with a computed
 * limit (one device: every group shares them) and which binds (results/upload-references.ts).
 */
function referenceNote(metrics: readonly Metric[], groups: readonly string[], backend: string): string {
  for (const group of groups) {
    const refs = groupReferences(metrics, group, backend);
    const clause = referencesClause(refs);
    if (refs.api && clause && bindingOf(refs)) return `\n  references: the limit rests on ${refs.api.name}; ${clause}`;
  }
  return '';
}

/**
 * Where an input pipeline's time goes: one table per scenario (the group's first part), one row
 * per group and strategy, one column per stage (medians, ms), from metrics labelled
 * { table: 'stages', group, strategy, stage }. Stages shared by every strategy of a group
 * (decode, collate, sync floor) show in each of its rows. Null without stage metrics.
 */
export function renderStageTables(metrics: readonly Metric[], backend = 'webgpu'): string | null {
  const byScenario = new Map<string, Metric[]>();
  for (const m of metrics) {
    if (m.labels?.table !== 'stages') continue;
    const scenario = stageGroup(m).split('.')[0]!;
    byScenario.set(scenario, [...(byScenario.get(scenario) ?? []), m]);
  }
  if (byScenario.size === 0) return null;
  const out: string[] = [];
  for (const [scenario, ms] of byScenario) {
    const stages = STAGE_ORDER.filter((s) => ms.some((m) => m.labels?.stage === s));
    const groups = [...new Set(ms.map(stageGroup))];
    const table = new Table({ head: ['strategy', ...stages.map((s) => `${s} ms`), 'total / limit'], style: { head: [], border: [] } });
    for (const group of groups) {
      const inGroup = ms.filter((m) => stageGroup(m) === group);
      const strategies = [...new Set(inGroup.map((m) => m.labels?.strategy).filter((s): s is string => !!s && s !== 'both'))];
      for (const strategy of strategies) {
        const find = (stage: string) => inGroup.find((x) => x.labels?.stage === stage && (x.labels?.strategy === strategy || x.labels?.strategy === 'both'));
        const total = find('total');
        const limit = find('limit');
        const label = group === scenario ? strategy : `${group.slice(scenario.length + 1)} ${strategy}`;
        table.push([
          label,
          ...stages.map((s) => (find(s) ? significant(find(s)!.value) : '')),
          total && limit ? `${(total.value / limit.value).toFixed(1)}x` : '',
        ]);
      }
    }
    out.push(
      `Where the time goes, ${scenario} (medians):\n${table.toString()}\n${stages.map((s) => `  ${s}: ${STAGE_NOTES[s] ?? ''}`).join('\n')}${referenceNote(metrics, groups, backend)}`,
    );
  }
  return out.join('\n\n');
}
