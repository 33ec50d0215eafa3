import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testAbResult } from '../../test/support/ab-result.js';
import { ROOT } from '../../test/support/cli.js';
import { gabFileSchema } from '../../test/support/export-validators.js';
import { testRatio, testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from '../results/schema.js';
import { gabBiggerExporter, gabSmallerExporter } from './github-benchmark.js';

const gabFile = gabFileSchema;

const time = (id: string, value: number, ci?: [number, number]): Metric => ({
  id,
  scenario: 'mnist-transfer',
  kind: 'time',
  value,
  unit: 'ms',
  ...(ci ? { ci } : {}),
});
const record = testRunRecord([
  testRatio('mnist-transfer.speedup', 1.25, [1.2, 1.3]),
  time('mnist-transfer.upload-ms.cpu-normalize', 1.5, [1.25, 2]),
  { id: 'mnist-transfer.upload-bytes.device-normalize', scenario: 'mnist-transfer', kind: 'exact', value: 50176, unit: 'B' },
  { id: 'training.epoch-1.images-per-second.resident', scenario: 'training', kind: 'quality', value: 812.5, unit: 'images/s', n: 3 },
  { id: 'mnist-transfer.max-abs-diff', scenario: 'mnist-transfer', kind: 'quality', value: 0, unit: '' },
]);
const input = { record, recordPath: null, comparison: null };
const parse = (text: string) => gabFile.parse(JSON.parse(text));

describe('github-action-benchmark custom JSON (--gab-bigger, --gab-smaller)', () => {
  it('puts speedups and rates in the bigger-is-better file, times in the smaller-is-better one, and leaves exact and bounded metrics out', async () => {
    expect(parse(await gabBiggerExporter.render(input, { color: false }))).toEqual([
      { name: 'mnist-transfer.speedup', value: 1.25, unit: 'x', range: '95% CI [1.2, 1.3] x', extra: 'profile webgpu-lavapipe-x64\nscenario speedup' },
      { name: 'training.epoch-1.images-per-second.resident', value: 812.5, unit: 'images/s', extra: 'profile webgpu-lavapipe-x64\nscenario training\nn 3' },
    ]);
    expect(parse(await gabSmallerExporter.render(input, { color: false }))).toEqual([
      {
        name: 'mnist-transfer.upload-ms.cpu-normalize',
        value: 1.5,
        unit: 'ms',
        range: '95% CI [1.25, 2] ms',
        extra: 'profile webgpu-lavapipe-x64\nscenario mnist-transfer',
      },
    ]);
  });

  it('fits the schema for every metric of the committed baseline, each charted metric in exactly one file', async () => {
    const baseline = JSON.parse(readFileSync(join(ROOT, 'baselines/webgpu-lavapipe-amd-epyc-2c-x64.json'), 'utf8')) as { metrics: Metric[] };
    const all = { record: testRunRecord(baseline.metrics), recordPath: null, comparison: null };
    const bigger = parse(await gabBiggerExporter.render(all, { color: false }));
    const smaller = parse(await gabSmallerExporter.render(all, { color: false }));
    const charted = baseline.metrics.filter((m) => m.kind === 'ratio' || m.kind === 'time' || (m.kind === 'quality' && m.unit.endsWith('/s')));
    expect([...bigger, ...smaller].map((b) => b.name).sort()).toEqual(charted.map((m) => m.id).sort());
  });

  it("an A/B: the head arm's value, the change and its interval as the range", () => {
    const ab = testAbResult();
    expect(parse(gabBiggerExporter.renderAb!(ab))).toEqual([
      {
        name: 'mnist-transfer.speedup',
        value: ab.verdicts[0]!.head,
        unit: 'x',
        range: 'head/base -25.0% [-30.0%, -20.0%] at 99%',
        extra: 'A/B main -> work on webgpu-lavapipe-x64\nregressed (p 0.0020)\n6 + 6 processes',
      },
    ]);
    expect(parse(gabSmallerExporter.renderAb!(ab)).map((b) => [b.name, b.unit])).toEqual([['mnist-transfer.upload-ms.device-normalize', 'ms']]);
  });

  it('the schema refuses what the action cannot read (the check is not vacuous)', () => {
    expect(gabFile.safeParse([{ name: 'a', value: '1', unit: 'ms' }]).success).toBe(false);
    expect(gabFile.safeParse([{ name: 'a', value: 1 }]).success).toBe(false);
    expect(gabFile.safeParse([]).success).toBe(false);
  });
});
