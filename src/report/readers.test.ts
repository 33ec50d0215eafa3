import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../test/support/cli.js';
import { type GabSuite, type GabTool, gabExtract, gabRatio, gabStep, readJunitAsJunitReport } from '../../test/support/readers.js';
import { issue40Run } from '../../test/support/issue40-run.js';
import { reportTestComparison, reportTestRecord } from '../../test/support/report.js';
import { testRatio, testRunRecord } from '../../test/support/run-record.js';
import type { RunRecord } from '../results/schema.js';
import { readRunRecord } from '../results/storage.js';
import { gabBiggerExporter, gabSmallerExporter } from './github-benchmark.js';
import { junitExporter } from './junit.js';

/**
 * What a person sees of our exports in the two GitHub actions that read them (issue 40, item 9):
 * mikepenz/action-junit-report 5.3.0's counts, summary and annotations, and
 * github-action-benchmark 1.22.0's alerts, each re-stated from its source in test/support/readers.ts.
 */

/** This clone's files, as the action's workspace holds them. */
const FILES = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

describe('mikepenz/action-junit-report 5.3.0 on our JUnit', () => {
  it("a regression, an inconclusive ratio and a one-scenario run: the counts, the check's title, where the failure points and what it says", async () => {
    const { record, comparison } = issue40Run();
    expect(comparison.exitCode).toBe(1);
    const xml = await junitExporter.render({ record, recordPath: null, comparison }, { color: false });
    const shown = await readJunitAsJunitReport(xml, 'perf lavapipe', { files: FILES });
    expect([shown.total, shown.passed, shown.skipped, shown.failed]).toEqual([3, 0, 2, 1]);
    expect(shown.checkTitle).toBe('3 tests run, 0 passed, 2 skipped, 1 failed.');
    expect(shown.summary).toEqual([
      ['', 'Tests', 'Passed', 'Skipped ⚠️', 'Failed ❌️'],
      ['perf lavapipe', '3 ran', '0 passed', '2 skipped', '1 failed'],
    ]);
    // The failure is annotated at the scenario's perf file (its `file`), line 1, with the verdict's change as its message.
    expect(shown.annotations).toHaveLength(1);
    const [failure] = shown.annotations;
    expect(failure).toMatchObject({
      path: 'perf/10-training.spec.ts',
      line: 1,
      level: 'failure',
      title: 'perf/10-training.spec.ts.training.step-time-vs-resident.cpu-normalize',
    });
    expect(failure!.message).toMatch(/^baseline 0\.94x, now 2\.82x \(\+200\.0%\): /);
    expect(shown.details).toEqual([['perf/10-training.spec.ts.training.step-time-vs-resident.cpu-normalize', '❌ failure']]);
    expect(shown.stepFails).toEqual({ requireTests: false, failOnFailure: true });
  });

  it('an inconclusive verdict: a skipped count by default; with include_passed a skipped row by name, its reason not shown (the action reads no message of <skipped>)', async () => {
    const { record, comparison } = issue40Run();
    const xml = await junitExporter.render({ record, recordPath: null, comparison }, { color: false });
    expect(xml).toMatch(/<skipped message="needs a look \(inconclusive\): /);
    const plain = await readJunitAsJunitReport(xml, 'perf', { files: FILES });
    expect(plain.details.map(([title]) => title)).not.toContain('perf/06-speedup.perf.ts.mnist-transfer.speedup');
    const all = await readJunitAsJunitReport(xml, 'perf', { files: FILES, includePassed: true });
    expect(all.details).toEqual([
      ['perf/10-training.spec.ts.training.step-time-vs-resident.cpu-normalize', '❌ failure'],
      ['perf/06-speedup.perf.ts.mnist-transfer.speedup', '⚠️️ skipped'],
      ['webgpu-lavapipe-x64.1 baseline metric(s) of scenarios this run did not select', '⚠️️ skipped'],
    ]);
    expect(all.annotations[1]).toMatchObject({ status: 'skipped', level: 'notice', message: 'mnist-transfer.speedup' });
  });

  it("a compared run's counts add up; a failed check points at its scenario's perf file, not at the baseline its classname names", async () => {
    const record = reportTestRecord();
    const comparison = reportTestComparison(record);
    const counted = await readJunitAsJunitReport(await junitExporter.render({ record, recordPath: null, comparison }, { color: false }), 'perf', {
      files: FILES,
    });
    expect([counted.total, counted.failed]).toEqual([comparison.verdicts.length + record.errors.length, 3]);
    expect(counted.passed + counted.skipped + counted.failed).toBe(counted.total);
    const failedCheck = testRunRecord([], {
      errors: [{ scenario: 'kinetics', test: 'decodes clips', message: 'ffmpeg not found' }],
      skipped: [{ scenario: 'coco', reason: 'no images' }],
    });
    const xml = await junitExporter.render({ record: failedCheck, recordPath: null, comparison: null }, { color: false });
    const shown = await readJunitAsJunitReport(xml, 'perf', { files: FILES, includePassed: true });
    expect(shown.annotations.map((a) => [a.status, a.path, a.line, a.message])).toEqual([
      ['skipped', 'perf/07-coco.perf.ts', 1, 'scenario coco'],
      ['failure', 'perf/08-kinetics.perf.ts', 1, 'ffmpeg not found'],
    ]);
  });

  it('an empty file: no case, so require_tests fails the step (the reader is not vacuous)', async () => {
    const shown = await readJunitAsJunitReport('<?xml version="1.0"?>\n<testsuites name="x"></testsuites>\n', 'perf', { files: FILES });
    expect(shown.checkTitle).toBe('No test results found!');
    expect(shown.stepFails).toEqual({ requireTests: true, failOnFailure: false });
  });
});

/** docs/ci.md's snippet: alert-threshold 150%, fail-threshold 300%, fail-on-alert. */
const DOCS = { alertThreshold: 1.5, failThreshold: 3, failOnAlert: true } as const;

/** The action's reading of one of our files at a commit. */
async function suite(record: RunRecord, tool: GabTool, commit: string): Promise<GabSuite> {
  const exporter = tool === 'customBiggerIsBetter' ? gabBiggerExporter : gabSmallerExporter;
  return { commit, tool, benches: gabExtract(await exporter.render({ record, recordPath: null, comparison: null }, { color: false }), `${tool}.json`) };
}

describe('benchmark-action/github-action-benchmark 1.22.0 on our files', () => {
  const run = (stepTime: number) =>
    testRunRecord([
      { ...testRatio('training.step-time-vs-resident.cpu-normalize', stepTime, [stepTime * 0.9, stepTime * 1.1]), scenario: 'training' },
      testRatio('mnist-transfer.speedup', 1 / stepTime, [0.9 / stepTime, 1.1 / stepTime]),
    ]);

  it("3x worse each way: an alert in the metric's own file (failing the step only above 300%); 3x better: none", async () => {
    const before = run(0.94);
    const [worse, better] = [run(2.82), run(0.94 / 3)];
    for (const tool of ['customBiggerIsBetter', 'customSmallerIsBetter'] as const) {
      const name = tool === 'customBiggerIsBetter' ? 'mnist-transfer.speedup' : 'training.step-time-vs-resident.cpu-normalize';
      const series = [await suite(before, tool, 'a')];
      const up = gabStep(series, await suite(worse, tool, 'b'), DOCS);
      expect(up.alerts.map((a) => a.name)).toEqual([name]);
      expect(up.alerts[0]!.ratio).toBeCloseTo(3, 2);
      // fail-threshold 300% fails a ratio above 3: the speedup's (1.064 over 0.3546 as written, 4 digits) is, the step time's (2.82 over 0.94) is exactly 3.
      if (tool === 'customBiggerIsBetter') expect(up.failure).toMatch(/^1 of 1 alerts exceeded the failure threshold `3` specified by fail-threshold input:/);
      else expect([up.alerts[0]!.ratio, up.failure]).toEqual([3, null]);
      const down = gabStep(series, await suite(better, tool, 'b'), DOCS);
      expect(down.alerts).toEqual([]);
      expect(down.failure).toBeNull();
      expect(down.summaryRows).toHaveLength(1);
      expect(down.summaryRows[0]).toMatch(new RegExp(`^\\| \`${name.replaceAll('.', '\\.')}\` \\| \`[0-9.]+\` x \\(\`95% CI .*\\| \`0\\.33\` \\|$`));
    }
  });

  it('the first point of a series and a re-run of the same commit compare with nothing', async () => {
    const first = await suite(run(2.82), 'customSmallerIsBetter', 'a');
    expect(gabStep([], first, DOCS)).toEqual({ summaryRows: [], alerts: [], failure: null });
    expect(gabStep([await suite(run(0.94), 'customSmallerIsBetter', 'a')], first, DOCS).alerts).toEqual([]);
  });

  it('two consecutive committed history records of one profile, which compare passes: no alert at 150%', async () => {
    const folder = join(ROOT, 'history/webgpu-lavapipe-amd-epyc-2c-x64');
    const records = await Promise.all(
      readdirSync(folder)
        .filter((f) => f.endsWith('.json'))
        .map((f) => readRunRecord(join(folder, f))),
    );
    records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const [prev, next] = records.slice(-2) as [RunRecord, RunRecord];
    const alerts: string[] = [];
    for (const tool of ['customBiggerIsBetter', 'customSmallerIsBetter'] as const) {
      const step = gabStep([await suite(prev, tool, 'a')], await suite(next, tool, 'b'), DOCS);
      alerts.push(...step.alerts.map((a) => `${a.name} ${a.ratio.toFixed(2)}x`));
      // Nothing from the host's state, a sync floor, a computed limit, or a 0 ms stage reaches the action (issue 40, case 4).
      expect(step.summaryRows.filter((r) => /host-probe|sync-floor|stage-ms\.limit/.test(r))).toEqual([]);
    }
    // Issue 40 counted 23 alerts at 150% between two such records, which compare passes: none now.
    expect(alerts).toEqual([]);
  });

  it('refuses an empty file with its own message, and reads 0 against 0 as no change (the re-statement is not vacuous)', () => {
    expect(() => gabExtract('[]\n', 'results/bigger.json')).toThrow("No benchmark result was found in results/bigger.json. Benchmark output was '[]\n'");
    expect(() => gabExtract('{}', 'x.json')).toThrow(/must be JSON file containing an array/);
    expect(gabRatio('customSmallerIsBetter', { name: 'a', value: 0, unit: 'ms' }, { name: 'a', value: 0, unit: 'ms' })).toBe(1);
    expect(gabRatio('customSmallerIsBetter', { name: 'a', value: 1, unit: 'ms' }, { name: 'a', value: 3, unit: 'ms' })).toBe(3);
    expect(gabRatio('customBiggerIsBetter', { name: 'a', value: 1, unit: 'x' }, { name: 'a', value: 3, unit: 'x' })).toBeCloseTo(1 / 3);
  });
});
