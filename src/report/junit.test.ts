import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStringPromise } from 'xml2js';
import { testAbResult } from '../../test/support/ab-result.js';
import { ROOT } from '../../test/support/cli.js';
import { reportTestComparison, reportTestRecord } from '../../test/support/report.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { informational } from '../results/verdict.js';
import { junitExporter, xmlAttr, xmlText } from './junit.js';

const run = promisify(execFile);
/** Jenkins' lenient JUnit schema (test/fixtures/schemas/README.md says where it came from). */
const XSD = join(ROOT, 'test/fixtures/schemas/junit-10.xsd');

/** One test case as dorny/test-reporter's java-junit parser reads it (xml2js; java-junit-parser.ts getTestCaseResult): failure or error is failed, skipped is skipped, else success. */
interface ReadCase {
  readonly classname: string;
  readonly name: string;
  readonly result: 'failed' | 'skipped' | 'success';
  readonly message: string | undefined;
}
type XmlCase = {
  $: { classname: string; name: string; time: string };
  failure?: Array<{ $: { message: string } }>;
  error?: unknown[];
  skipped?: Array<{ $: { message: string } }>;
};
type XmlDoc = { testsuites: { $: Record<string, string>; testsuite: Array<{ $: Record<string, string>; testcase?: XmlCase[] }> } };

/** The report read back as the GitHub test-report action reads it. */
async function readBack(xml: string): Promise<{ doc: XmlDoc; cases: ReadCase[] }> {
  const doc = (await parseStringPromise(xml)) as XmlDoc;
  const cases = (doc.testsuites.testsuite[0]?.testcase ?? []).map((tc) => ({
    classname: tc.$.classname,
    name: tc.$.name,
    result: tc.failure || tc.error ? ('failed' as const) : tc.skipped ? ('skipped' as const) : ('success' as const),
    message: (tc.failure ?? tc.skipped)?.[0]?.$.message,
  }));
  return { doc, cases };
}

describe('JUnit XML of the verdicts (--junit)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'junit-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** xmllint's verdict on `xml` against junit-10.xsd: exit 0 and "validates", or the error. */
  async function xmllint(xml: string, name: string): Promise<string> {
    const file = join(dir, name);
    await writeFile(file, xml);
    try {
      const { stderr } = await run('xmllint', ['--noout', '--schema', XSD, file]);
      return stderr.trim();
    } catch (error) {
      return `FAILED ${(error as { stderr: string }).stderr.trim()}`;
    }
  }

  it('a compared run: a case per verdict and per failed check, failures for the regression and the missing metric, skipped for what was not judged; valid against junit-10.xsd', async () => {
    const record = reportTestRecord();
    const comparison = reportTestComparison(record);
    const xml = await junitExporter.render({ record, recordPath: null, comparison }, { color: false });
    expect(await xmllint(xml, 'compare.xml')).toBe(`${join(dir, 'compare.xml')} validates`);
    const { doc, cases } = await readBack(xml);
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

  it('a run without a baseline: every metric skipped, saying why', async () => {
    const record = testRunRecord([{ id: 'a.b', scenario: 'a', kind: 'exact', value: 1, unit: 'B' }]);
    const xml = await junitExporter.render({ record, recordPath: null, comparison: null }, { color: false });
    expect(await xmllint(xml, 'none.xml')).toMatch(/validates$/);
    expect((await readBack(xml)).cases).toEqual([
      {
        classname: 'gpu-transfer-perf.webgpu-lavapipe-x64',
        name: 'a.b',
        result: 'skipped',
        message: 'not judged: no baseline for profile webgpu-lavapipe-x64',
      },
    ]);
  });

  it('an A/B: a failure for the regressed metric, a pass for the other, a failed check per process error; the profile in the classname', async () => {
    const xml = junitExporter.renderAb!(testAbResult({ errors: ['head process 2: [speedup] pairs: device lost'] }));
    expect(await xmllint(xml, 'ab.xml')).toMatch(/validates$/);
    const { doc, cases } = await readBack(xml);
    expect(cases.map((c) => [c.classname, c.name, c.result])).toEqual([
      ['gpu-transfer-perf.webgpu-lavapipe-x64', 'mnist-transfer.speedup', 'failed'],
      ['gpu-transfer-perf.webgpu-lavapipe-x64', 'mnist-transfer.upload-ms.device-normalize', 'success'],
      ['gpu-transfer-perf.webgpu-lavapipe-x64', 'check process error 1', 'failed'],
    ]);
    expect(cases[0]?.message).toBe('regressed <by> "test" & co');
    expect(doc.testsuites.$.time).toBe('90.000');
  });

  it('escapes markup, quotes and line breaks, and replaces what XML cannot hold, so any message reads back', async () => {
    const message = 'a<b & "c" \'d\'\tend\u0001\uD800 ]]> \u{1F600}';
    const record = testRunRecord([], { errors: [{ scenario: 's', test: 't', message }] });
    const xml = await junitExporter.render({ record, recordPath: null, comparison: null }, { color: false });
    expect(await xmllint(xml, 'escape.xml')).toMatch(/validates$/);
    expect((await readBack(xml)).cases[0]?.message).toBe('a<b & "c" \'d\'\tend\uFFFD\uFFFD ]]> \u{1F600}');
    expect(xmlText('<&>')).toBe('&lt;&amp;&gt;');
    expect(xmlAttr('"\n')).toBe('&quot;&#10;');
  });

  it('xmllint refuses a document the schema does not allow (the check is not vacuous)', async () => {
    const bad = '<?xml version="1.0"?>\n<testsuites><testsuite name="x" tests="1" failures="0" errors="0"><testcase classname="c"/></testsuite></testsuites>\n';
    expect(await xmllint(bad, 'bad.xml')).toMatch(/^FAILED .*attribute 'name' is required/s);
  });
});
