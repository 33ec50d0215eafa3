import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testAbResult } from '../../test/support/ab-result.js';
import { type ReadCase, junitXsdFindings, readJunitAsTestReporter } from '../../test/support/export-validators.js';
import { reportTestComparison, reportTestRecord } from '../../test/support/report.js';
import { ROOT } from '../../test/support/cli.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { scenarioOfPath } from '../results/scenario-file.js';
import { makeBaseline } from '../results/baseline.js';
import { compareWithBaseline } from '../results/compare.js';
import { informational } from '../results/verdict.js';
import { junitExporter, xmlAttr, xmlText } from './junit.js';
import { tempFolder } from '../../test/support/temp-folder.js';
import { issue40Run } from '../../test/support/issue40-run.js';

describe('JUnit XML of the verdicts (--junit)', () => {
  const temp = tempFolder('junit-');

  /** xmllint's verdict on `xml`, written to `name`, against junit-10.xsd. */
  async function xmllint(xml: string, name: string): Promise<string> {
    await writeFile(temp.at(name), xml);
    return junitXsdFindings(temp.at(name));
  }

  it('a compared run: a case per verdict and per failed check, failures for the regression and the missing metric, skipped for what was not judged; valid against junit-10.xsd', async () => {
    const record = reportTestRecord();
    const comparison = reportTestComparison(record);
    const xml = await junitExporter.render({ record, recordPath: null, comparison }, { color: false });
    expect(await xmllint(xml, 'compare.xml')).toBe(`${temp.at('compare.xml')} validates`);
    const { doc, cases } = await readJunitAsTestReporter(xml);
    expect(cases).toHaveLength(comparison.verdicts.length + record.errors.length);
    expect(new Set(cases.map((c) => c.classname))).toEqual(new Set([`gpu-transfer-perf.${record.profile.id}`]));
    const by = (result: ReadCase['result']) => cases.filter((c) => c.result === result).map((c) => c.name);
    expect(by('failed')).toEqual(['mnist-transfer.upload-bytes.cpu-normalize', 'memory.bytes.raw-batch', 'check kinetics-video: decodes clips']);
    const skipped = cases.filter((c) => c.result === 'skipped');
    // Not judged: the new metric, and each ratio or time of one process (information, src/results/verdict.ts informational).
    const notJudged = comparison.verdicts.filter((v) => v.verdict === 'new' || informational(v)).map((v) => v.id);
    expect(notJudged.length).toBeGreaterThan(2);
    expect(skipped.map((c) => c.name)).toEqual(notJudged);
    expect(skipped.find((c) => c.name === 'sweep.b512.speedup')?.message).toMatch(/^no baseline value: /);
    expect(skipped.find((c) => c.name === 'coco.speedup.transfer')?.message).toMatch(/^not judged: /);
    expect(cases.find((c) => c.name.startsWith('check '))?.message).toBe('ffmpeg not found <script>alert(1)</script>');
    const totals = doc.testsuites.testsuite[0]!.$;
    expect([totals.tests, totals.failures, totals.errors, totals.skipped]).toEqual([String(cases.length), '3', '0', String(notJudged.length)]);
    expect(by('success')).toHaveLength(cases.length - 3 - notJudged.length);
    expect(doc.testsuites.$.name).toBe('gpu-transfer-perf');
  });

  it('a scenario the run skipped (a missing tool): one skipped case saying why', async () => {
    const record = testRunRecord([], { skipped: [{ scenario: 'kinetics', reason: 'ffmpeg not found (install it)' }] });
    const xml = await junitExporter.render({ record, recordPath: null, comparison: null }, { color: false });
    expect(await xmllint(xml, 'skipped.xml')).toMatch(/validates$/);
    expect((await readJunitAsTestReporter(xml)).cases).toEqual([
      {
        classname: 'gpu-transfer-perf.webgpu-lavapipe-x64',
        name: 'scenario kinetics',
        result: 'skipped',
        message: 'not measured: ffmpeg not found (install it)',
      },
    ]);
  });

  it('a run without a baseline: every metric skipped, saying why', async () => {
    const record = testRunRecord([{ id: 'a.b', scenario: 'a', kind: 'exact', value: 1, unit: 'B' }]);
    const xml = await junitExporter.render({ record, recordPath: null, comparison: null }, { color: false });
    expect(await xmllint(xml, 'none.xml')).toMatch(/validates$/);
    expect((await readJunitAsTestReporter(xml)).cases).toEqual([
      {
        classname: 'gpu-transfer-perf.webgpu-lavapipe-x64',
        name: 'a.b',
        result: 'skipped',
        message: 'not judged: no baseline for profile webgpu-lavapipe-x64',
      },
    ]);
  });

  it('a refused comparison (exit 3): one failed case saying why, the metrics skipped', async () => {
    const record = testRunRecord([{ id: 'a.b', scenario: 'a', kind: 'exact', value: 1, unit: 'B' }]);
    const comparison = compareWithBaseline(record, makeBaseline(testRunRecord([], { scale: 'full' }), 'b.json', {}), {
      allowProfileMismatch: false,
      gateTiming: false,
    });
    expect(comparison.refused).toMatch(/quick and full are never compared/);
    const xml = await junitExporter.render({ record, recordPath: null, comparison }, { color: false });
    expect(await xmllint(xml, 'refused.xml')).toMatch(/validates$/);
    const { cases } = await readJunitAsTestReporter(xml);
    expect(cases.map((c) => [c.name, c.result])).toEqual([
      ['baseline comparison', 'failed'],
      ['a.b', 'skipped'],
    ]);
    expect(cases[0]!.message).toBe(comparison.refused);
  });

  it('an A/B: a failure for the regressed metric, a pass for the other, a failed check per process error; the profile in the classname, named apart from a perf run of the runner', async () => {
    const xml = junitExporter.renderAb!(testAbResult({ errors: ['head process 2: [speedup] pairs: device lost'] }));
    expect(await xmllint(xml, 'ab.xml')).toMatch(/validates$/);
    const { doc, cases } = await readJunitAsTestReporter(xml);
    expect(cases.map((c) => [c.classname, c.name, c.result])).toEqual([
      ['gpu-transfer-perf.webgpu-lavapipe-x64', 'ab mnist-transfer.speedup', 'failed'],
      ['gpu-transfer-perf.webgpu-lavapipe-x64', 'ab mnist-transfer.upload-ms.device-normalize', 'success'],
      ['gpu-transfer-perf.webgpu-lavapipe-x64', 'ab check: process error 1', 'failed'],
    ]);
    expect(cases[0]?.message).toBe('regressed <by> "test" & co');
    expect(doc.testsuites.$.time).toBe('90.000');
  });

  it('escapes markup, quotes and line breaks, and replaces what XML cannot hold, so any message reads back', async () => {
    const message = 'a<b & "c" \'d\'\tend\u0001\uD800 ]]> \u{1F600}';
    const record = testRunRecord([], { errors: [{ scenario: 's', test: 't', message }] });
    const xml = await junitExporter.render({ record, recordPath: null, comparison: null }, { color: false });
    expect(await xmllint(xml, 'escape.xml')).toMatch(/validates$/);
    expect((await readJunitAsTestReporter(xml)).cases[0]?.message).toBe('a<b & "c" \'d\'\tend\uFFFD\uFFFD ]]> \u{1F600}');
    expect(xmlText('<&>')).toBe('&lt;&amp;&gt;');
    expect(xmlAttr('"\n')).toBe('&quot;&#10;');
  });

  it('what the panes show for a smaller-is-better ratio made 3x worse, an inconclusive ratio, and a one-scenario run (issue 40)', async () => {
    // Made 3x worse; the speedup 12% lower in one process: inconclusive (test/support/issue40-run.ts).
    const { record, comparison } = issue40Run();
    expect(comparison.exitCode).toBe(1);
    expect(comparison.verdicts.find((v) => v.id === 'mnist-transfer.speedup')?.verdict).toBe('inconclusive');
    const xml = await junitExporter.render({ record, recordPath: null, comparison }, { color: false });
    expect(await xmllint(xml, 'directions.xml')).toMatch(/validates$/);
    const { doc, cases } = await readJunitAsTestReporter(xml);
    expect(cases.map((c) => [c.name, c.result])).toEqual([
      ['training.step-time-vs-resident.cpu-normalize', 'failed'],
      ['mnist-transfer.speedup', 'skipped'],
      ['1 baseline metric(s) of scenarios this run did not select', 'skipped'],
    ]);
    expect(cases[0]!.message).toMatch(/^baseline 0\.94x, now 2\.82x \(\+200\.0%\): across|^baseline 0\.94x, now 2\.82x \(\+200\.0%\): prediction/);
    expect(cases[1]!.message).toMatch(/^needs a look \(inconclusive\): /);
    // Where action-junit-report points a failure: the scenario's perf file.
    const files = doc.testsuites.testsuite[0]!.testcase!.map((c) => (c.$ as Record<string, string>).file);
    expect(files).toEqual(['perf/10-training.spec.ts', 'perf/06-speedup.perf.ts', undefined]);
    // dorny/test-reporter reads both times with parseFloat: a number, never "NaNms".
    expect(Number.isNaN(Number.parseFloat(doc.testsuites.$.time!))).toBe(false);
    expect(Number.isNaN(Number.parseFloat(doc.testsuites.testsuite[0]!.$.time!))).toBe(false);
  });

  it('names a built-in perf file for each scenario of a full run, as the folder holds it', async () => {
    const ids = ['mnist-loader', 'speedup', 'stages', 'coco', 'kinetics', 'memory', 'training', 'dtypes', 'sweep', 'soak'];
    const record = testRunRecord(ids.map((id) => ({ id: `${id}.x`, scenario: id, kind: 'exact' as const, value: 1, unit: 'B' })));
    const xml = await junitExporter.render({ record, recordPath: null, comparison: null }, { color: false });
    const { doc } = await readJunitAsTestReporter(xml);
    const files = doc.testsuites.testsuite[0]!.testcase!.map((c) => (c.$ as Record<string, string>).file!);
    const here = new Set(readdirSync(join(ROOT, 'perf')).map((f) => `perf/${f}`));
    expect(files.filter((f) => !here.has(f))).toEqual([]);
    expect(files.map(scenarioOfPath)).toEqual(ids);
  });

  it('xmllint refuses a document the schema does not allow (the check is not vacuous)', async () => {
    const bad = '<?xml version="1.0"?>\n<testsuites><testsuite name="x" tests="1" failures="0" errors="0"><testcase classname="c"/></testsuite></testsuites>\n';
    expect(await xmllint(bad, 'bad.xml')).toMatch(/^FAILED .*attribute 'name' is required/s);
  });
});
