import { parseStringPromise } from 'xml2js';

/**
 * What two GitHub actions that read our exports would show, re-stated from their source (they are
 * actions, not npm packages, so neither can be a dependency; their code is not copied here). Each
 * function names the file and commit it re-states; anything the action does that does not decide
 * what a person sees (git pushes, API calls, logging) is left out and said so.
 *
 * Checked once against the actions' own released JS (2026-12-06, not kept here: neither is an npm
 * package): github-action-benchmark's dist/src/index.js at a60cea5b with external-data-json-path,
 * and action-junit-report's dist/index.js at v5.3.0 with annotate_only, on the files
 * src/report/readers.test.ts makes: the same summary rows (126 for two history records), alerts,
 * failures, counts, annotations (path, line, message) and detailed-summary rows as these functions.
 */

// ---------------------------------------------------------------------------------------------
// benchmark-action/github-action-benchmark v1.22.0: tag v1.22.0 is the release build a60cea5b of
// source commit c38cce98215cf75e178ecd5a0c1a1ab215e93006 ("release v1.22.0"), files under src/.
// ---------------------------------------------------------------------------------------------

/** One entry of the action's custom JSON, as its zod `BenchmarkResult` leaves it (src/extract.ts, lines 7-13: every field coerced). */
export interface GabResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly range?: string;
  readonly extra?: string;
}

export type GabTool = 'customBiggerIsBetter' | 'customSmallerIsBetter';

/** One run of one series (the action's `Benchmark`): the commit it was measured at and its results. */
export interface GabSuite {
  readonly commit: string;
  readonly tool: GabTool;
  readonly benches: readonly GabResult[];
}

/**
 * src/extract.ts extractCustomBenchmarkResult + extractResult (lines 688-697, 719-767): the file as
 * JSON, each entry coerced (`z.coerce.string()` is String(x), `z.coerce.number()` Number(x) and
 * fails on NaN), and an empty list refused with the action's own message.
 */
export function gabExtract(output: string, outputFilePath: string): GabResult[] {
  const fail = (why: string) =>
    new Error(`Output file for 'custom-(bigger|smaller)-is-better' must be JSON file containing an array of entries in BenchmarkResult format: ${why}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(output);
  } catch (error) {
    throw fail((error as Error).message);
  }
  if (!Array.isArray(parsed)) throw fail('expected array');
  const benches = parsed.map((entry: unknown, i): GabResult => {
    if (typeof entry !== 'object' || entry === null) throw fail(`[${i}]: expected object`);
    const e = entry as Record<string, unknown>;
    const value = Number(e.value);
    if (Number.isNaN(value)) throw fail(`[${i}].value: expected number, received NaN`);
    return {
      name: String(e.name),
      value,
      unit: String(e.unit),
      ...(e.range === undefined ? {} : { range: String(e.range) }),
      ...(e.extra === undefined ? {} : { extra: String(e.extra) }),
    };
  });
  if (benches.length === 0) throw new Error(`No benchmark result was found in ${outputFilePath}. Benchmark output was '${output}'`);
  return benches;
}

/** src/write.ts biggerIsBetter (lines 63-90), for the two custom tools. */
const biggerIsBetter = (tool: GabTool): boolean => tool === 'customBiggerIsBetter';

/** src/write.ts getRatio (lines 548-554): how many times worse, in the tool's direction; 0 against 0 is 1. */
export function gabRatio(tool: GabTool, prev: GabResult, current: GabResult): number {
  if (prev.value === 0 && current.value === 0) return 1;
  return biggerIsBetter(tool) ? prev.value / current.value : current.value / prev.value;
}

/** src/normalizeValueByUnit.ts + canonicalizeUnit.ts: a value in the previous point's unit where both are time, per-iteration or ops-per-time units (x1000 a step). */
function normalizeValueByUnit(prevUnit: string, currentUnit: string, value: number): number {
  const canonical = (u: string) => u.trim().toLowerCase().replace(/µs|μs/g, 'us');
  const time = ['s', 'ms', 'us', 'ns'];
  const families = [time, time.map((u) => `${u}/iter`), [...time].reverse().map((u) => `ops/${u}`)];
  for (const units of families) {
    const [p, c] = [units.indexOf(canonical(prevUnit)), units.indexOf(canonical(currentUnit))];
    if (p >= 0 && c >= 0) return value * 1000 ** (p - c);
  }
  return value;
}

/** src/normalizeBenchmarkResult.ts (value and unit; the range's rescaling does not enter an alert). */
function normalizeResult(prev: GabResult | undefined, current: GabResult): GabResult {
  if (!prev) return current;
  const value = normalizeValueByUnit(prev.unit, current.unit, current.value);
  return { ...current, value, unit: current.value !== value ? prev.unit : current.unit };
}

/** src/write.ts floatStr (lines 136-150): how the comment and the summary print a ratio. */
export function gabFloatStr(n: number): string {
  if (!Number.isFinite(n)) return `${n > 0 ? '+' : '-'}∞`;
  if (Number.isInteger(n)) return n.toFixed(0);
  if (n > 0.1) return n.toFixed(2);
  return n.toString();
}

/** The action's inputs that decide an alert: alert-threshold, fail-threshold (percentages / 100; src/config.ts getPercentageInput), fail-on-alert. */
export interface GabOptions {
  readonly alertThreshold: number;
  readonly failThreshold?: number;
  readonly failOnAlert: boolean;
}

export interface GabAlert {
  readonly name: string;
  readonly prev: number;
  readonly current: number;
  readonly ratio: number;
}

/** What one step of the action shows: the summary-always table rows, the alerts, and the error that fails the step (or null). */
export interface GabShown {
  readonly summaryRows: readonly string[];
  readonly alerts: readonly GabAlert[];
  readonly failure: string | null;
}

const strVal = (b: GabResult) => `\`${b.value}\` ${b.unit}${b.range ? ` (\`${b.range}\`)` : ''}`;

/**
 * One run of the action on a series: src/addBenchmarkEntry.ts (the previous point is the last suite
 * of another commit; none: nothing compared), src/normalizeBenchmark.ts, then src/write.ts
 * buildComment's rows (lines 183-196, what `summary-always` writes), findAlerts (lines 98-121: an
 * alert where ratio > alert-threshold) and handleAlert (lines 299-317: with fail-on-alert, the
 * step fails where some alert's ratio > fail-threshold, which defaults to alert-threshold).
 */
export function gabStep(series: readonly GabSuite[], current: GabSuite, options: GabOptions): GabShown {
  const prevSuite = [...series].reverse().find((s) => s.commit !== current.commit);
  if (!prevSuite) return { summaryRows: [], alerts: [], failure: null };
  const benches = current.benches.map((b) =>
    normalizeResult(
      prevSuite.benches.find((p) => p.name === b.name),
      b,
    ),
  );
  const summaryRows: string[] = [];
  const alerts: GabAlert[] = [];
  for (const b of benches) {
    const prev = prevSuite.benches.find((p) => p.name === b.name);
    if (!prev) {
      summaryRows.push(`| \`${b.name}\` | ${strVal(b)} | | |`);
      continue;
    }
    const ratio = gabRatio(current.tool, prev, b);
    summaryRows.push(`| \`${b.name}\` | ${strVal(b)} | ${strVal(prev)} | \`${gabFloatStr(ratio)}\` |`);
    if (ratio > options.alertThreshold) alerts.push({ name: b.name, prev: prev.value, current: b.value, ratio });
  }
  const failThreshold = options.failThreshold ?? options.alertThreshold;
  const fatal = alerts.filter((a) => a.ratio > failThreshold);
  const failure =
    options.failOnAlert && fatal.length > 0
      ? `${failThreshold !== options.alertThreshold ? `${fatal.length} of ${alerts.length} alerts exceeded the failure threshold \`${gabFloatStr(failThreshold)}\` specified by fail-threshold input:\n\n` : ''}# :warning: **Performance Alert** :warning:`
      : null;
  return { summaryRows, alerts, failure };
}

// ---------------------------------------------------------------------------------------------
// mikepenz/action-junit-report v5.3.0: tag v5.3.0 = ee6b445351cd81e2f73a16a0e52d598aeac2197f,
// src/testParser.ts (parseTestReports, parseSuite, parseTestCases, resolveFileAndLine),
// src/table.ts (buildSummaryTables), src/annotator.ts (the check's title).
// ---------------------------------------------------------------------------------------------

/** The action's inputs that change what it shows (action.yml defaults: all false). */
export interface JunitReportOptions {
  /** `include_passed`: passed and skipped cases become (notice) annotations, and so rows of the detailed summary. */
  readonly includePassed?: boolean;
  /** The workspace's files, relative to it: the action points a failure at a path that exists, else at the first match of the glob `**\/<name>.*`, else at the name. */
  readonly files: readonly string[];
}

/** An annotation of testParser.ts (lines 562-574): where it points, how it reads. */
export interface JunitAnnotation {
  readonly path: string;
  readonly line: number;
  readonly level: 'failure' | 'notice';
  readonly status: 'success' | 'failure' | 'skipped';
  readonly title: string;
  readonly message: string;
}

export interface JunitReportShown {
  readonly total: number;
  readonly passed: number;
  readonly skipped: number;
  readonly failed: number;
  readonly annotations: readonly JunitAnnotation[];
  /** The check run's title (annotator.ts lines 23-28). */
  readonly checkTitle: string;
  /** The job summary's table: header row, then the report's row (table.ts lines 26-64). */
  readonly summary: readonly (readonly string[])[];
  /** `detailed_summary: true`'s rows after its header: [title, result] per annotation shown (table.ts lines 66-95). */
  readonly details: readonly (readonly [string, string])[];
  /** The step's own outcome: `require_tests` fails without cases, `fail_on_failure` with a failed case (main.ts lines 115-119, 185-187). */
  readonly stepFails: { readonly requireTests: boolean; readonly failOnFailure: boolean };
}

type XNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const children = (node: XNode, name: string): XNode[] => (Array.isArray(node[name]) ? (node[name] as XNode[]) : []);
const textOf = (node: XNode | undefined): string => (node === undefined ? '' : typeof node === 'string' ? node : (node._ ?? ''));

/** resolveFileAndLine (testParser.ts lines 70-109): the file attribute, else the classname's last dot part; the line, else the last ` <file>...:N` of the stack trace, else 1. */
function fileAndLine(file: string | undefined, className: string, stackTrace: string): { fileName: string; line: number } {
  const fileName = file ? file : (className.split('.').slice(-1)[0] ?? '');
  const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('::', '/');
  const matches = stackTrace.match(new RegExp(` [^ ]*${escaped}.*?:\\d+`, 'g'));
  if (!matches) return { fileName, line: 1 };
  const line = Number.parseInt(matches[matches.length - 1]!.split(':').pop() ?? '', 10);
  return { fileName, line: Number.isNaN(line) ? -1 : line };
}

/**
 * Where a failure's annotation points (testParser.ts lines 514-529 and resolvePath, lines 139-176):
 * the name where that file exists, else the first file of the glob `**\/<name>.*` outside /build/
 * and /__pycache__/ (`*` stops at a slash), else the name without a leading ./ .
 */
function workspacePath(name: string, files: readonly string[]): string {
  if (files.includes(name)) return name;
  const normalized = name.replace(/^\.\//, '');
  const glob = new RegExp(`(^|/)${normalized.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.[^/]*$`);
  return files.find((f) => glob.test(f) && !['/build/', '/__pycache__/'].some((x) => `/${f}`.includes(x))) ?? normalized;
}

/**
 * A JUnit report as action-junit-report 5.3.0 shows it with its defaults (no transformers, no
 * retries check, no title template, no annotations limit), parsed with xml2js instead of its
 * xml-js (the same elements and attributes; only the object shapes differ).
 */
export async function readJunitAsJunitReport(xml: string, checkName: string, options: JunitReportOptions): Promise<JunitReportShown> {
  const doc = (await parseStringPromise(xml)) as Record<string, XNode>;
  const root = doc.testsuites ?? doc.testsuite;
  let total = 0;
  let skipped = 0;
  const annotations: JunitAnnotation[] = [];
  const walk = (suite: XNode) => {
    for (const tc of children(suite, 'testcase')) {
      total++;
      const a = tc.$ ?? {};
      const failure = children(tc, 'failure')[0];
      const error = children(tc, 'error')[0];
      const failed = failure !== undefined || error !== undefined;
      const skip = children(tc, 'skipped').length > 0 || a.status === 'disabled' || a.status === 'ignored';
      if (skip) skipped++;
      const level = !failed || skip ? 'notice' : 'failure';
      if (level !== 'failure' && !options.includePassed) continue;
      const stackTrace = (textOf(failure) || textOf(error)).trim();
      const message = (failure?.$?.message || error?.$?.message || stackTrace.split('\n').slice(0, 2).join('\n') || a.name || '').trim();
      const pos = fileAndLine(a.file || failure?.$?.file || suite.$?.file, a.classname || a.name || '', stackTrace);
      annotations.push({
        path: failed && !skip ? workspacePath(pos.fileName, options.files) : pos.fileName,
        line: pos.line,
        level,
        status: skip ? 'skipped' : failed ? 'failure' : 'success',
        title: pos.fileName !== a.name ? `${pos.fileName}.${a.name}` : `${a.name}`,
        message,
      });
    }
    for (const child of [...children(suite, 'testsuite'), ...children(suite, 'testsuites')]) walk(child);
  };
  if (root) walk(root);
  const failed = annotations.filter((x) => x.level === 'failure').length;
  const passed = total - failed - skipped;
  const hasTests = total > 0;
  const summary = [
    [
      '',
      'Tests',
      hasTests ? (passed > 0 ? (failed > 0 ? 'Passed ☑️' : 'Passed ✅') : 'Passed') : 'Passed ❌️',
      skipped > 0 ? 'Skipped ⚠️' : 'Skipped',
      failed > 0 ? 'Failed ❌️' : 'Failed',
    ],
    [checkName, `${total} ran`, `${passed} passed`, `${skipped} skipped`, `${failed} failed`],
  ];
  const details = annotations
    .filter((x) => options.includePassed || x.level !== 'notice')
    .map((x): [string, string] => [x.title, x.status === 'success' ? '✅ pass' : x.status === 'skipped' ? '⚠️️ skipped' : `❌ ${x.level}`]);
  return {
    total,
    passed,
    skipped,
    failed,
    annotations,
    checkTitle: total > 0 || skipped > 0 ? `${total} tests run, ${passed} passed, ${skipped} skipped, ${failed} failed.` : 'No test results found!',
    summary,
    details,
    stepFails: { requireTests: !(total > 0 || skipped > 0), failOnFailure: failed > 0 },
  };
}
