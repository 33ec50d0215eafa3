import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import { parseStringPromise } from 'xml2js';
import { z } from 'zod';
import { type Bmf, bmfProblems } from '../../src/report/bmf.js';

/**
 * The validators of the exports for other engines, as those engines read them: Bencher's
 * published BMF schema, Jenkins' junit-10.xsd through Debian's xmllint, github-action-benchmark's
 * BenchmarkResult (test/fixtures/schemas/README.md says where each came from).
 */
const SCHEMAS = join(import.meta.dirname, '../fixtures/schemas');

const validateBmf = new Ajv({ strict: true }).compile(JSON.parse(readFileSync(join(SCHEMAS, 'bmf.json'), 'utf8')) as object);

/** Why `bmf` is not BMF as Bencher reads it (the JSON Schema, then bmfProblems' semantic checks); [] when it is. */
export function bmfFindings(bmf: unknown): string[] {
  if (!validateBmf(bmf)) return (validateBmf.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  return bmfProblems(bmf as Bmf);
}

/** Jenkins' lenient JUnit schema. */
export const JUNIT_XSD = join(SCHEMAS, 'junit-10.xsd');

/**
 * xmllint's verdict on `file` against junit-10.xsd: '<file> validates', or 'FAILED <its errors>'.
 * A testcase's `file` attribute is left out of the check: it is the extension GitLab,
 * action-junit-report and jest-junit read (where a failure points), which junit-10.xsd predates;
 * everything else is checked as written.
 */
export async function junitXsdFindings(file: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'junit-xsd-'));
  const checked = join(folder, 'checked.xml');
  await writeFile(checked, (await readFile(file, 'utf8')).replace(/(<testcase\b[^>]*?) file="[^"]*"/g, '$1'));
  try {
    const { stderr } = await promisify(execFile)('xmllint', ['--noout', '--schema', JUNIT_XSD, checked]);
    return stderr.trim().replaceAll(checked, file);
  } catch (error) {
    return `FAILED ${(error as { stderr: string }).stderr.trim().replaceAll(checked, file)}`;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * What github-action-benchmark's custom tools read: a non-empty array of its BenchmarkResult
 * (benchmark-action/github-action-benchmark src/extract.ts at 04dcc2c: `name: string; value:
 * number; range?: string; unit: string; extra?: string`; extractResult throws on an empty list).
 * Strict: a field it does not know would be dropped by its extractCustomBenchmarkResult.
 */
export const gabFileSchema = z
  .array(z.object({ name: z.string(), value: z.number(), range: z.string().optional(), unit: z.string(), extra: z.string().optional() }).strict())
  .min(1);

/** One test case as dorny/test-reporter's java-junit parser reads it (xml2js; java-junit-parser.ts getTestCaseResult): failure or error is failed, skipped is skipped, else success. */
export interface ReadCase {
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
export async function readJunitAsTestReporter(xml: string): Promise<{ doc: XmlDoc; cases: ReadCase[] }> {
  const doc = (await parseStringPromise(xml)) as XmlDoc;
  const cases = (doc.testsuites.testsuite[0]?.testcase ?? []).map((tc) => ({
    classname: tc.$.classname,
    name: tc.$.name,
    result: tc.failure || tc.error ? ('failed' as const) : tc.skipped ? ('skipped' as const) : ('success' as const),
    message: (tc.failure ?? tc.skipped)?.[0]?.$.message,
  }));
  return { doc, cases };
}
