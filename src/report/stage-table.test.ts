import { describe, expect, it } from 'vitest';
import type { Metric } from '../results/schema.js';
import { referenceMetric } from '../results/upload-references.js';
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

  it("says under a table with limits which of the three references binds: the API's rate, the link, the host copy", () => {
    const ref = (kind: string, gbps: number, name: string, source: 'measured' | 'computed' = 'measured'): Metric => ({
      ...referenceMetric('mnist-transfer', { kind: kind as 'api-upload', gbps, name, source }, 'test'),
      scenario: 'stages',
    });
    const rows = [
      stage('mnist-transfer.stage-ms.total.device-normalize', 'device-normalize', 'total', 0.6, 'mnist-transfer'),
      stage('mnist-transfer.stage-ms.limit.device-normalize', 'device-normalize', 'limit', 0.06, 'mnist-transfer'),
    ];
    // Without references, or with the API's rate and no machine bound (a software adapter's run): the table alone.
    expect(renderStageTables(rows)).not.toContain('references:');
    expect(renderStageTables([...rows, ref('api-upload', 9.84, "WebGPU's upload rate")])).not.toContain('references:');
    const text = renderStageTables([
      ...rows,
      ref('api-upload', 2.17, "WebGPU's upload rate"),
      ref('host-copy', 27.2, 'the host memory copy'),
      ref('pcie-link', 63.015, 'the Gen5 x16 link', 'computed'),
    ])!;
    expect(text.split('\n').at(-1)).toBe(
      "  references: the limit rests on WebGPU's upload rate; that rate (2.17 GB/s) is 0.034 of the Gen5 x16 link (63.0 GB/s, computed from sysfs) and 0.080 of the host memory copy (27.2 GB/s): the API's staging path binds, not this pipeline (under 0.1 of the host memory copy)",
    );
    // An API at 0.5 of the lower machine bound: that bound binds.
    expect(renderStageTables([...rows, ref('api-upload', 13.6, "WebGPU's upload rate"), ref('host-copy', 27.2, 'the host memory copy')])).toMatch(
      /0\.50 of the host memory copy \(27\.2 GB\/s\): the host memory copy binds: the API reaches 0\.50 of it$/,
    );
  });
});
