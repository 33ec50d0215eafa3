import Table from 'cli-table3';
import type { Metric } from '../results/schema.js';
import { significant } from './format.js';

/** Stage columns in pipeline order; a scenario shows those it measured. */
const STAGE_ORDER = ['decode', 'collate', 'host', 'upload', 'compute', 'kernels', 'sync-floor', 'total', 'limit'] as const;

/** Where each stage's figure comes from, printed under the table. */
const STAGE_NOTES: Record<string, string> = {
  decode: 'reading and decoding files, host clock (the same for both strategies)',
  collate: 'resize/letterbox and copy into one buffer, host clock (the same for both)',
  host: 'normalize/encode on the CPU, host clock',
  upload: 'host payload to resident device tensor, synced (contains one sync floor)',
  compute: 'resident tensor to model input on the device, synced (contains one sync floor)',
  kernels:
    'GPU timestamp queries of the compute stage, profiled apart (tfjs then gives each kernel its own pass and its regular dispatch, so this can exceed the compute stage)',
  'sync-floor': 'an empty submit and wait on the same device',
  total: 'all stages without syncs in between (what a pipeline does), synced at the end',
  limit: "the device's limit: sync floor + bytes at measured writeBuffer bandwidth + one pass at measured shader bandwidth (computed)",
};

/**
 * Where an input pipeline's time goes: per scenario, one row per strategy and one column per
 * stage (medians, ms), from metrics labelled { table: 'stages', strategy, stage }. Stages shared
 * by both strategies (decode, collate, sync floor) show in each row. Null without stage metrics.
 */
export function renderStageTables(metrics: readonly Metric[]): string | null {
  const byScenario = new Map<string, Metric[]>();
  // Grouped by the metric id's first part (mnist-transfer, coco, kinetics): a scenario's totals
  // and its stages may come from different perf files.
  for (const m of metrics) {
    const key = m.id.split('.')[0]!;
    if (m.labels?.table === 'stages') byScenario.set(key, [...(byScenario.get(key) ?? []), m]);
  }
  if (byScenario.size === 0) return null;
  const out: string[] = [];
  for (const [scenario, ms] of byScenario) {
    const stages = STAGE_ORDER.filter((s) => ms.some((m) => m.labels?.stage === s));
    const strategies = [...new Set(ms.map((m) => m.labels?.strategy).filter((s): s is string => !!s && s !== 'both'))];
    const table = new Table({ head: ['strategy', ...stages.map((s) => `${s} ms`), 'total / limit'], style: { head: [], border: [] } });
    for (const strategy of strategies) {
      const cell = (stage: string) => {
        const m = ms.find((x) => x.labels?.stage === stage && (x.labels?.strategy === strategy || x.labels?.strategy === 'both'));
        return m ? significant(m.value) : '';
      };
      const total = ms.find((x) => x.labels?.stage === 'total' && x.labels?.strategy === strategy);
      const limit = ms.find((x) => x.labels?.stage === 'limit' && x.labels?.strategy === strategy);
      table.push([strategy, ...stages.map(cell), total && limit ? `${(total.value / limit.value).toFixed(1)}x` : '']);
    }
    out.push(`Where the time goes, ${scenario} (medians):\n${table.toString()}\n${stages.map((s) => `  ${s}: ${STAGE_NOTES[s] ?? ''}`).join('\n')}`);
  }
  return out.join('\n\n');
}
