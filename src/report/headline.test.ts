import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO_DIR, scenarioOfPath } from '../results/scenario-file.js';
import { testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from '../results/schema.js';
import { genericHeadline, isArticleScenario, ratioSentence } from './headline.js';
import { runSummary } from './summary.js';

const m = (id: string, scenario: string, kind: Metric['kind'], value: number, unit: string, extra: Partial<Metric> = {}): Metric => ({
  id,
  scenario,
  kind,
  value,
  unit,
  ...extra,
});
const pair = { a: 'cpu-normalize', b: 'device-normalize' };

describe('scenario headlines', () => {
  it('says what each built-in scenario found in one line, the lead figure annotated', () => {
    const record = testRunRecord(
      [
        m('mnist-transfer.speedup', 'speedup', 'ratio', 1.85, 'x', { ci: [1.7, 2.0], n: 400, labels: pair }),
        m('mnist-transfer.upload-bytes.cpu-normalize', 'cpu-normalize', 'exact', 200_704, 'B'),
        m('mnist-transfer.upload-bytes.device-normalize', 'device-normalize', 'exact', 50_176, 'B'),
        ...[32, 512].map((b, i) =>
          m(`sweep.b${b}.speedup`, 'sweep', 'ratio', 0.8 + i, 'x', { ci: [0.7 + i, 0.9 + i], labels: { quantity: 'speedup', batch: String(b) } }),
        ),
      ],
      { errors: [{ scenario: 'coco', test: 'decodes', message: 'no such file' }] },
    );
    const lines = Object.fromEntries(
      runSummary(record, null, (x) => (x.kind === 'ratio' ? ' <b>' : '')).scenarios.map((s) => [s.id, s.headline?.text ?? null]),
    );
    expect(lines).toEqual({
      speedup: '1.85x [1.70, 2.00] <b>: device-normalize faster than cpu-normalize (400 pairs)',
      'cpu-normalize': '200,704 B on the wire per batch: float32, 4 bytes per pixel',
      'device-normalize': '50,176 B on the wire per batch (uint8): 4x fewer than cpu-normalize',
      sweep: 'device-normalize vs cpu-normalize by batch: 0.80x [0.70, 0.90] <b> at 32, 1.80x at 512',
      coco: null, // only an error: the report says so
    });
  });

  it("falls back, for a project's own scenario, to its first paired ratio, else its first exact figure", () => {
    const speedup = m('mine.speedup', 'mine', 'ratio', 0.9, 'x', { ci: [0.85, 0.95], n: 40, labels: pair });
    expect(genericHeadline([m('mine.bytes', 'mine', 'exact', 10, 'B'), speedup])?.text).toBe(
      '0.90x [0.85, 0.95]: device-normalize SLOWER than cpu-normalize (40 pairs)',
    );
    expect(genericHeadline([m('mine.bytes', 'mine', 'exact', 10, 'B'), m('mine.t', 'mine', 'time', 1, 'ms')])?.text).toBe(
      'mine.bytes 10 B (0.01 KB) (and 1 more figure)',
    );
    expect(genericHeadline([])).toBeNull();
  });

  it('answers the flag questions: each shape with its speedup and bytes; the folder with its counts', () => {
    const group = (g: string) => ({ ...pair, group: g });
    const record = testRunRecord([
      m('shape.8x16x16x3.upload-bytes.cpu-normalize', 'shape', 'exact', 24_576, 'B'),
      m('shape.8x16x16x3.upload-bytes.device-normalize', 'shape', 'exact', 6_144, 'B'),
      m('shape.8x16x16x3.speedup', 'shape', 'ratio', 1.5, 'x', { ci: [1.2, 1.8], labels: group('shape.8x16x16x3') }),
      m('shape.2x16x16x3.speedup', 'shape', 'ratio', 0.9, 'x', { ci: [0.8, 0.95], labels: group('shape.2x16x16x3') }),
      m('image-folder.images', 'image-folder', 'exact', 5, 'count'),
      m('image-folder.skipped', 'image-folder', 'exact', 1, 'count'),
      m('image-folder.speedup.transfer', 'image-folder', 'ratio', 2, 'x', { ci: [1.5, 2.5], labels: { ...pair, part: 'transfer' } }),
    ]);
    const lines = Object.fromEntries(runSummary(record, null).scenarios.map((s) => [s.id, s.headline?.text]));
    expect(lines.shape).toBe(
      '[8x16x16x3] 1.50x [1.20, 1.80] device-normalize faster than cpu-normalize, 6,144 B vs 24,576 B on the wire (4x fewer); [2x16x16x3] 0.90x [0.80, 0.95] device-normalize SLOWER than cpu-normalize',
    );
    expect(lines['image-folder']).toBe('5 images (1 skipped); transfer 2.00x [1.50, 2.50]: device-normalize faster than cpu-normalize');
  });

  it('words any ratio as far as its CI allows: a pair names its strategies, an unpaired ratio says above or below 1, and where it was measured', () => {
    const mine = { a: 'host-float32', b: 'device-uint8' };
    expect(ratioSentence(m('r', 'mine', 'ratio', 4, 'x', { ci: [3.9, 4.1], labels: mine }))).toBe(
      'device-uint8 faster than host-float32 in this process (CI above 1)',
    );
    expect(ratioSentence(m('r', 'mine', 'ratio', 0.8, 'x', { ci: [0.7, 0.9], labels: mine, processes: [0.8, 0.7, 0.9] }))).toBe(
      'device-uint8 SLOWER than host-float32 across 3 processes (CI below 1)',
    );
    expect(ratioSentence(m('r', 'mine', 'ratio', 1.1, 'x', { ci: [0.9, 1.3] }))).toBe('not clearly different from 1 in this process (CI includes 1)');
    expect(ratioSentence(m('r', 'mine', 'ratio', 1.1, 'x'))).toBe('not clearly different from 1 in this process (no CI)');
    expect(ratioSentence(m('r', 'mine', 'ratio', 2, 'x', { ci: [1.5, 2.5] }))).toBe('above 1 in this process (CI above 1)');
  });

  it("tells the article's scenarios from a user's own and the flag questions", () => {
    expect(['speedup', 'dtypes', 'sweep', 'training'].every(isArticleScenario)).toBe(true);
    expect(['shape', 'image-folder', 'rgb-batches', 'constructor', 'toString'].some(isArticleScenario)).toBe(false);
    // Every built-in scenario file is one: a new one without its headline would be reported as a user's run.
    const builtIn = readdirSync(DEFAULT_SCENARIO_DIR).filter((f) => /\.(spec|perf|bench)\.ts$/.test(f));
    expect(builtIn.length).toBeGreaterThan(10);
    for (const file of builtIn) expect(isArticleScenario(scenarioOfPath(file.replace('.bench.ts', '.perf.ts'))), file).toBe(true);
  });
});
