import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testAbResult } from '../../test/support/ab-result.js';
import { ROOT } from '../../test/support/cli.js';
import { gabFileSchema } from '../../test/support/export-validators.js';
import { gabRatio } from '../../test/support/readers.js';
import { testRatio, testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from '../results/schema.js';
import { gabBiggerExporter, gabDirection, gabSmallerExporter, type GabBenchmark } from './github-benchmark.js';

/**
 * github-action-benchmark 1.22.0's alert (src/write.ts, findAlerts; its ratio re-stated in
 * test/support/readers.ts): for each benchmark of the new run with one of the same name before
 * it, an alert where ratio > threshold (alert-threshold 150% in docs/ci.md).
 */
function alerts(prev: readonly GabBenchmark[], curr: readonly GabBenchmark[], biggerIsBetter: boolean, threshold = 1.5): string[] {
  return curr.flatMap((c) => {
    const p = prev.find((x) => x.name === c.name);
    if (!p) return [];
    const ratio = gabRatio(biggerIsBetter ? 'customBiggerIsBetter' : 'customSmallerIsBetter', p, c);
    return ratio > threshold ? [`${c.name} ${ratio.toFixed(2)}x worse`] : [];
  });
}

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
    const charted = baseline.metrics.filter((m) => gabDirection(m) !== null);
    expect([...bigger, ...smaller].map((b) => b.name).sort()).toEqual(charted.map((m) => m.id).sort());
    // Host probes, sync floors, computed limits and 0 ms stages (no kernel run) are not benchmarks (issue 40).
    const names = [...bigger, ...smaller].map((b) => b.name);
    expect(names.filter((n) => /host-probe|sync-floor|stage-ms\.limit|upload-reference/.test(n))).toEqual([]);
    expect([...bigger, ...smaller].filter((b) => b.value === 0)).toEqual([]);
    expect(names).toContain('training.step-time-vs-resident.cpu-normalize');
    expect(smaller.map((b) => b.name)).toContain('training.step-time-vs-resident.cpu-normalize');
  });

  it('what the action shows for a 3x change each way: an alert only when worse, in the file of the metric direction (issue 40)', async () => {
    const step = (value: number) =>
      testRunRecord([
        { ...testRatio('training.step-time-vs-resident.cpu-normalize', value, [value * 0.9, value * 1.1]), scenario: 'training' },
        testRatio('mnist-transfer.speedup', 1 / value, [0.9 / value, 1.1 / value]),
      ]);
    const files = async (value: number) => {
      const at = { record: step(value), recordPath: null, comparison: null };
      return { bigger: parse(await gabBiggerExporter.render(at, { color: false })), smaller: parse(await gabSmallerExporter.render(at, { color: false })) };
    };
    const [before, worse, better] = [await files(0.94), await files(2.82), await files(0.94 / 3)];
    // The step-time ratio rose 3x (worse) and the speedup fell 3x (worse): each alerts in its own file.
    expect(alerts(before.smaller, worse.smaller, false)).toEqual(['training.step-time-vs-resident.cpu-normalize 3.00x worse']);
    expect(alerts(before.bigger, worse.bigger, true)).toEqual(['mnist-transfer.speedup 3.00x worse']);
    // 3x better: no alert anywhere.
    expect([...alerts(before.smaller, better.smaller, false), ...alerts(before.bigger, better.bigger, true)]).toEqual([]);
    // Before issue 40 the step-time ratio sat in the bigger file: rising 3x raised nothing there.
    expect(before.bigger.map((b) => b.name)).toEqual(['mnist-transfer.speedup']);
  });

  it('writes no file where nothing is of its direction (the action fails on an empty one), and says why', () => {
    const bytesOnly = {
      record: testRunRecord([{ id: 'mnist-loader.batches', scenario: 'mnist-loader', kind: 'exact', value: 4, unit: 'batches' }]),
      recordPath: null,
      comparison: null,
    };
    expect(gabBiggerExporter.nothing!(bytesOnly)).toMatch(/no bigger-is-better figure.*fails on an empty file/);
    expect(gabSmallerExporter.nothing!(bytesOnly)).toMatch(/no smaller-is-better figure/);
    expect(gabBiggerExporter.nothing!(input)).toBeNull();
    const ratiosOnly = testAbResult({ verdicts: [testAbResult().verdicts[0]!] });
    expect(gabSmallerExporter.nothingAb!(ratiosOnly)).toMatch(/this A\/B has no smaller-is-better/);
  });

  it('rounds values to 4 significant digits: the action prints them as they are', async () => {
    const long = { record: testRunRecord([testRatio('mnist-transfer.speedup', 0.4415430708538491, [0.4, 0.5])]), recordPath: null, comparison: null };
    expect(parse(await gabBiggerExporter.render(long, { color: false }))[0]!.value).toBe(0.4415);
  });

  it("an A/B: the head arm's value, the change and its interval as the range", () => {
    const ab = testAbResult();
    expect(parse(gabBiggerExporter.renderAb!(ab))).toEqual([
      {
        name: 'mnist-transfer.speedup',
        value: 0.6,
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
