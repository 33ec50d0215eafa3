import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testAbResult } from '../../test/support/ab-result.js';
import { ROOT } from '../../test/support/cli.js';
import { bmfFindings } from '../../test/support/export-validators.js';
import { testRatio, testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from '../results/schema.js';
import { directionOf } from '../results/direction.js';
import { AB_CHANGE_MEASURE, type Bmf, BMF_MEASURE_MAX, bmfExporter, bmfMeasure, bmfMeasureOf, bmfProblems } from './bmf.js';

/** Valid against Bencher's schema and sound (bmfProblems), or the reasons why not. */
const check = bmfFindings;

const metric = (id: string, kind: Metric['kind'], value: number, unit: string, ci?: [number, number]): Metric => ({
  id,
  scenario: id.split('.')[0]!,
  kind,
  value,
  unit,
  ...(ci ? { ci } : {}),
});

const record = testRunRecord([
  testRatio('mnist-transfer.speedup', 1.25, [1.2, 1.3]),
  metric('mnist-transfer.upload-ms.cpu-normalize', 'time', 1.5, 'ms', [1.25, 2]),
  metric('mnist-transfer.upload-bytes.device-normalize', 'exact', 50176, 'B'),
  { ...metric('mnist-transfer.max-abs-diff', 'quality', 0, ''), bound: { max: 1e-6 } },
  metric('training.epoch-1.images-per-second.resident', 'quality', 812.5, 'images/s'),
  metric('coco.data.images', 'exact', 4, 'images'),
  metric('training.step-time-vs-resident.cpu-normalize', 'ratio', 0.94, 'x', [0.9, 1]),
  metric('mnist-transfer.stages.stage-ms.sync-floor', 'time', 0.2, 'ms'),
  metric('training.loss.cpu-normalize', 'quality', 0.3, ''),
]);

describe('Bencher Metric Format (--bmf)', () => {
  it('writes one benchmark per metric worth a threshold, in a measure of one quantity and direction: times as latency in ns, the 95% interval as lower/upper; information left out', async () => {
    const bmf: unknown = JSON.parse(await bmfExporter.render({ record, recordPath: null, comparison: null }, { color: false }));
    expect(bmf).toEqual({
      'mnist-transfer.speedup': { speedup: { value: 1.25, lower_value: 1.2, upper_value: 1.3 } },
      'mnist-transfer.upload-ms.cpu-normalize': { latency: { value: 1_500_000, lower_value: 1_250_000, upper_value: 2_000_000 } },
      'mnist-transfer.upload-bytes.device-normalize': { 'exact-bytes': { value: 50176 } },
      'mnist-transfer.max-abs-diff': { 'max-abs-diff': { value: 0 } },
      'training.epoch-1.images-per-second.resident': { 'images-per-second': { value: 812.5 } },
      'coco.data.images': { 'exact-images': { value: 4 } },
      // Smaller is better: not in `speedup`, whose threshold is the other way round (issue 40).
      'training.step-time-vs-resident.cpu-normalize': { 'time-ratio': { value: 0.94, lower_value: 0.9, upper_value: 1 } },
    });
    expect(check(bmf)).toEqual([]);
  });

  it('passes the schema and the semantic checks for the committed baseline, every measure one direction', async () => {
    const baseline = JSON.parse(readFileSync(join(ROOT, 'baselines/webgpu-lavapipe-amd-epyc-2c-x64.json'), 'utf8')) as { metrics: Metric[] };
    const bmf = JSON.parse(await bmfExporter.render({ record: testRunRecord(baseline.metrics), recordPath: null, comparison: null }, { color: false })) as Bmf;
    const exported = baseline.metrics.filter((m) => bmfMeasureOf(m) !== null);
    expect(Object.keys(bmf).sort()).toEqual(exported.map((m) => m.id).sort());
    expect(exported.length).toBeGreaterThan(100);
    // Bencher thresholds a measure one way: no measure may hold metrics better in opposite directions.
    const directions = new Map<string, Set<string>>();
    for (const m of exported) directions.set(bmfMeasureOf(m)!.measure, (directions.get(bmfMeasureOf(m)!.measure) ?? new Set()).add(directionOf(m)));
    expect([...directions].filter(([, d]) => d.size > 1)).toEqual([]);
    // Host probes, sync floors and computed limits describe the machine: none is a benchmark.
    expect(Object.keys(bmf).filter((id) => /host-probe|sync-floor|stage-ms\.limit/.test(id))).toEqual([]);
    expect(check(bmf)).toEqual([]);
  });

  it('writes an A/B as the head arm in its measure and head/base with the verdict interval', () => {
    const bmf: unknown = JSON.parse(bmfExporter.renderAb!(testAbResult()));
    expect(check(bmf)).toEqual([]);
    const b = bmf as Bmf;
    expect(b['mnist-transfer.speedup']!.speedup!.value).toBeCloseTo(0.6, 12);
    expect(b['mnist-transfer.speedup']![AB_CHANGE_MEASURE]).toEqual({ value: 0.75, lower_value: 0.7, upper_value: 0.8 });
    expect(b['mnist-transfer.upload-ms.device-normalize']!.latency!.value).toBeCloseTo(2.02e6, 3);
  });

  it('widens an interval that misses its value by rounding, so that lower <= value <= upper', async () => {
    const off = testRunRecord([testRatio('mnist-transfer.speedup', 1, [1 + 1e-12, 1.1])]);
    const bmf = JSON.parse(await bmfExporter.render({ record: off, recordPath: null, comparison: null }, { color: false })) as Bmf;
    expect(bmf['mnist-transfer.speedup']!.speedup).toEqual({ value: 1, lower_value: 1, upper_value: 1.1 });
  });

  it('names measures by slugs Bencher accepts', () => {
    expect(bmfMeasure('s')).toEqual({ measure: 'latency', scale: 1e9 });
    expect(bmfMeasure('GB/s')).toEqual({ measure: 'gb-per-second', scale: 1 });
    expect(bmfMeasure('pixels/s').measure).toBe('pixels-per-second');
    expect(bmfMeasure('a'.repeat(100)).measure).toHaveLength(BMF_MEASURE_MAX);
    expect(bmfMeasure('%').measure).toBe('dimensionless');
  });

  it('the validators refuse what Bencher would: the schema a value that is no number, the checks an interval, a name or a slug out of bounds', () => {
    expect(check({ a: { latency: { lower_value: 1 } } })).toEqual(["/a/latency must have required property 'value'"]);
    expect(check({ a: { latency: { value: '1' } } })).toEqual(['/a/latency/value must be number']);
    expect(check({ a: { latency: { value: 2, lower_value: 3, upper_value: 1 } } })).toEqual([
      'a latency: lower_value 3 > value 2',
      'a latency: upper_value 1 < value 2',
    ]);
    // ajv refuses a non-finite number too; the checks say so where the schema is not run (JSON cannot hold one: it would be null).
    expect(check({ a: { latency: { value: Number.POSITIVE_INFINITY } } })).toEqual(['/a/latency/value must be number']);
    expect(bmfProblems({ a: { latency: { value: Number.NaN } } })).toEqual(['a latency: a value that is not finite (NaN)']);
    expect(check({ ['n'.repeat(1025)]: { [`m${'x'.repeat(64)}`]: { value: 1 } } })).toHaveLength(2);
  });
});
