import { describe, expect, it } from 'vitest';
import type { Metric } from '../results/schema.js';
import { renderStageTables, stageGroup } from './stage-table.js';

/** A stage metric as the suite records it. */
function stage(id: string, strategy: string, name: string, value: number, group?: string): Metric {
  return {
    id,
    scenario: 'x',
    kind: 'time',
    value,
    unit: 'ms',
    n: 10,
    source: 'measured',
    detail: '',
    labels: { table: 'stages', strategy, stage: name, ...(group ? { group } : {}) },
  };
}

describe('stageGroup', () => {
  it('takes the group label, else the first part of the id (records before the label)', () => {
    expect(stageGroup(stage('sweep.b32.stage-ms.host.cpu-normalize', 'cpu-normalize', 'host', 1, 'sweep.b32'))).toBe('sweep.b32');
    expect(stageGroup(stage('coco.stage-ms.host.cpu-normalize', 'cpu-normalize', 'host', 1))).toBe('coco');
  });
});

describe('renderStageTables', () => {
  it('is null without stage metrics', () => {
    expect(renderStageTables([])).toBeNull();
  });

  it('gives one table per scenario, a row per group and strategy, and total over limit', () => {
    const text = renderStageTables([
      stage('sweep.b32.stage-ms.host.cpu-normalize', 'cpu-normalize', 'host', 0.2, 'sweep.b32'),
      stage('sweep.b32.stage-ms.total.cpu-normalize', 'cpu-normalize', 'total', 0.6, 'sweep.b32'),
      stage('sweep.b32.stage-ms.limit.cpu-normalize', 'cpu-normalize', 'limit', 0.2, 'sweep.b32'),
      stage('sweep.b32.stage-ms.sync-floor', 'both', 'sync-floor', 0.05, 'sweep.b32'),
      stage('sweep.b64.stage-ms.host.cpu-normalize', 'cpu-normalize', 'host', 0.4, 'sweep.b64'),
      stage('mnist-transfer.time.device-normalize', 'device-normalize', 'total', 0.3),
    ])!;
    expect(text.match(/Where the time goes/g)).toHaveLength(2);
    expect(text).toContain('Where the time goes, sweep (medians)');
    const row32 = text.split('\n').find((l) => l.includes('b32 cpu-normalize'))!;
    // host, sync floor (shared), total, and 0.6 / 0.2 = 3.0x
    expect(row32).toMatch(/0\.2.*0\.05.*0\.6.*0\.2.*3\.0x/);
    const row64 = text.split('\n').find((l) => l.includes('b64 cpu-normalize'))!;
    expect(row64).toContain('0.4');
    expect(row64).not.toMatch(/\d\.\dx/);
    expect(text).toContain('Where the time goes, mnist-transfer (medians)');
  });
});
