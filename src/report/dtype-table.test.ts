import { describe, expect, it } from 'vitest';
import type { Metric, RunRecord } from '../results/schema.js';
import { renderDtypeSection, renderDtypeTables, renderHalfPrecision } from './dtype-table.js';

const base = { scenario: 'dtypes', source: 'measured' } as const;
const metrics: Metric[] = [
  {
    ...base,
    id: 'dtypes.64x1x28x28.upload-bytes.float32',
    labels: { table: 'dtypes', batch: '64x1x28x28', quantity: 'upload-bytes', dtype: 'float32' },
    kind: 'exact',
    value: 200_704,
    unit: 'B',
  },
  {
    ...base,
    id: 'dtypes.64x1x28x28.upload-bytes.uint8',
    labels: { table: 'dtypes', batch: '64x1x28x28', quantity: 'upload-bytes', dtype: 'uint8' },
    kind: 'exact',
    value: 50_176,
    unit: 'B',
  },
  {
    ...base,
    id: 'dtypes.64x1x28x28.time.uint8',
    labels: { table: 'dtypes', batch: '64x1x28x28', quantity: 'time', dtype: 'uint8' },
    kind: 'time',
    value: 0.25,
    unit: 'ms',
    n: 30,
  },
  {
    ...base,
    id: 'dtypes.64x1x28x28.time.float32',
    labels: { table: 'dtypes', batch: '64x1x28x28', quantity: 'time', dtype: 'float32' },
    kind: 'time',
    value: 0.5,
    unit: 'ms',
    n: 30,
  },
  {
    ...base,
    id: 'dtypes.64x1x28x28.speedup-vs-float32.uint8',
    labels: { table: 'dtypes', batch: '64x1x28x28', quantity: 'speedup-vs-float32', dtype: 'uint8' },
    kind: 'ratio',
    value: 2,
    unit: 'x',
    ci: [1.5, 2.5],
    n: 30,
  },
  {
    ...base,
    id: 'dtypes.64x1x28x28.upload-bytes.float16',
    labels: { table: 'dtypes', batch: '64x1x28x28', quantity: 'upload-bytes', dtype: 'float16' },
    kind: 'exact',
    value: 100_352,
    unit: 'B',
  },
  {
    ...base,
    id: 'dtypes.64x1x28x28.speedup-vs-float32.float16',
    labels: { table: 'dtypes', batch: '64x1x28x28', quantity: 'speedup-vs-float32', dtype: 'float16' },
    kind: 'ratio',
    value: 0.5,
    unit: 'x',
    ci: [0.4, 0.6],
    n: 30,
  },
  {
    ...base,
    id: 'dtypes.64x1x28x28.host-encode-time.float16',
    labels: { table: 'dtypes', batch: '64x1x28x28', quantity: 'host-encode-time', dtype: 'float16' },
    kind: 'time',
    value: 0.8,
    unit: 'ms',
    n: 15,
  },
  { ...base, id: 'dtypes.max-abs-diff.uint8', kind: 'quality', value: 0, unit: '' },
  { ...base, id: 'mnist-transfer.speedup', scenario: 'speedup', kind: 'ratio', value: 2, unit: 'x' },
];

describe('renderDtypeTables', () => {
  it('puts one row per type in wire order, with bytes, time, ratio with CI and what the CI shows', () => {
    const text = renderDtypeTables(metrics)!;
    expect(text).toContain('batch 64x1x28x28, 30 interleaved rounds');
    const rows = text.split('\n').filter((l) => /^│ (uint8|int8|float16|float32)/.test(l));
    expect(rows.map((r) => r.split('│')[1]!.trim())).toEqual(['uint8', 'float16', 'float32']);
    expect(rows[0]).toMatch(/50,176 B \(49\.00 KB\).*0\.25.*2\.00x \[1\.50, 2\.50\].*faster/);
    expect(rows[1]).toMatch(/100,352 B.*0\.50x \[0\.40, 0\.60\].*SLOWER.*0\.8/);
    expect(rows[2]).toMatch(/200,704 B.*0\.5 .*1 \(reference\)/);
  });

  it('is null when the run has no dtypes timings', () => {
    expect(renderDtypeTables(metrics.filter((m) => !m.id.startsWith('dtypes.64')))).toBeNull();
  });
});

describe('renderHalfPrecision', () => {
  it('lists the half-precision capabilities, loud where one is missing', () => {
    const text = renderHalfPrecision({
      'float16-payload': { supported: true, detail: 'crosses at 2 bytes' },
      'mixed-precision': { supported: false, detail: 'no autocast' },
      'timestamp-query': { supported: true, detail: 'not about precision' },
    })!;
    expect(text.split('\n')).toEqual([
      'Half precision (article section 13):',
      '  float16-payload: yes. crosses at 2 bytes',
      '  mixed-precision: NO. no autocast',
    ]);
  });

  it('joins both in the report section', () => {
    const record = { metrics, profile: { capabilities: { 'mixed-precision': { supported: false, detail: 'no autocast' } } } } as unknown as RunRecord;
    expect(renderDtypeSection(record)).toMatch(/batch 64x1x28x28[\s\S]*Half precision[\s\S]*mixed-precision: NO/);
  });
});
