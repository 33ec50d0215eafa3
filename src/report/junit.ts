import type { AbResult } from '../results/ab-result.js';
import { failingVerdicts, ranScenario } from '../results/compare.js';
import { type RunError, type SkippedScenario, skippedLine } from '../results/schema.js';
import { informational, type Verdict } from '../results/verdict.js';
import { changeLine, verdictLabel } from './comparison.js';
import { formatValue, significant } from './format.js';
import type { Exporter, ReportInput } from './exporter.js';

/**
 * JUnit XML of the verdicts (`--junit FILE`) for the test panes of GitHub (dorny/test-reporter's
 * java-junit), GitLab and Jenkins: one test case per (profile, metric or check); a failure for a
 * regression or a failed check, skipped for what was not judged. Valid against Jenkins' lenient
 * junit-10.xsd (jenkinsci/xunit-plugin; a copy in test/fixtures/schemas/).
 */

/** How one test case ended: passed, failed (a regression, a failed check), or skipped (not judged). */
export type JunitOutcome =
  | { readonly kind: 'passed' }
  | { readonly kind: 'failure'; readonly type: string; readonly message: string }
  | { readonly kind: 'skipped'; readonly message: string };

export interface JunitCase {
  /** Carries the profile: GitLab keeps only the first of cases with equal classname and name, and several profiles' files meet in one pipeline. */
  readonly classname: string;
  readonly name: string;
  readonly outcome: JunitOutcome;
  /** Why: the verdict's reason, shown under the case. */
  readonly out: string;
  /**
   * The perf file of the case's scenario ('perf/06-speedup.perf.ts'), where the run knows it: the
   * `file` attribute action-junit-report annotates a failure at (without it, the classname's guess).
   */
  readonly file?: string;
}

export interface JunitSuite {
  readonly name: string;
  readonly timestamp: string | null;
  /** Seconds the measuring took, where known. */
  readonly seconds: number | null;
  readonly properties: ReadonlyArray<readonly [string, string]>;
  readonly cases: readonly JunitCase[];
}

/** Characters XML 1.0 cannot hold at all (https://www.w3.org/TR/xml/#charsets): control characters, lone surrogates, U+FFFE/U+FFFF; shown as U+FFFD. */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** `s` as XML character data. */
export const xmlText = (s: string): string => s.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `s` as a double-quoted XML attribute value; line breaks and tabs as references, which attribute normalization would otherwise turn into spaces. */
export const xmlAttr = (s: string): string => xmlText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');

const attrs = (pairs: ReadonlyArray<readonly [string, string | number]>) => pairs.map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`).join('');

/** The test case element: its outcome element, then its reason as system-out. */
function caseXml(c: JunitCase): string {
  const o = c.outcome;
  const outcome =
    o.kind === 'failure'
      ? `\n      <failure${attrs([
          ['type', o.type],
          ['message', o.message],
        ])}>${xmlText(o.message)}</failure>`
      : o.kind === 'skipped'
        ? `\n      <skipped${attrs([['message', o.message]])}/>`
        : '';
  // time="0": a verdict is a judgement, not a timed test; dorny/test-reporter reads a missing time as NaN.
  return `    <testcase${attrs([
    ['classname', c.classname],
    ['name', c.name],
    ...(c.file ? [['file', c.file] as [string, string]] : []),
    ['time', 0],
  ])}>${outcome}\n      <system-out>${xmlText(c.out)}</system-out>\n    </testcase>`;
}

/** The whole document: one suite under a `testsuites` named after the tool (what the output guard recognizes). */
export function junitXml(suite: JunitSuite): string {
  const count = (kind: JunitOutcome['kind']) => suite.cases.filter((c) => c.outcome.kind === kind).length;
  const totals: Array<[string, number]> = [
    ['tests', suite.cases.length],
    ['failures', count('failure')],
    ['errors', 0],
  ];
  // Always a time: dorny/test-reporter 3.0.0 parses a missing one as NaN ("NaNms", issue 40); 0 where unknown, as the cases say.
  const time: Array<[string, string]> = [['time', (suite.seconds ?? 0).toFixed(3)]];
  const properties = suite.properties.map(
    ([name, value]) =>
      `      <property${attrs([
        ['name', name],
        ['value', value],
      ])}/>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs([['name', 'gpu-transfer-perf'], ...totals, ...time])}>`,
    `  <testsuite${attrs([['name', suite.name], ...totals, ['skipped', count('skipped')], ...time, ...(suite.timestamp ? [['timestamp', suite.timestamp] as [string, string]] : [])])}>`,
    ...(properties.length > 0 ? ['    <properties>', ...properties, '    </properties>'] : []),
    ...suite.cases.map(caseXml),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The classname of a profile's cases: Jenkins shows 'gpu-transfer-perf' as the package and the profile as the class. */
export const junitClassname = (profile: string): string => `gpu-transfer-perf.${profile}`;

/** A scenario's perf file as a case's `file`, where known: without it action-junit-report points at whatever the classname's last part globs (a baseline). */
type ScenarioFile = (scenario: string) => string | undefined;
const fileOf = (file: ScenarioFile, scenario: string): { file?: string } => {
  const at = file(scenario);
  return at ? { file: at } : {};
};

/** One case per failed check of the run (a scenario whose test failed). */
const errorCases = (classname: string, errors: readonly RunError[], file: ScenarioFile): JunitCase[] =>
  errors.map((e) => ({
    classname,
    name: `check ${e.scenario}: ${e.test}`,
    outcome: { kind: 'failure', type: 'failed check', message: e.message.split('\n')[0] ?? '' },
    out: e.message,
    ...fileOf(file, e.scenario),
  }));

/** One skipped case per scenario the run did not measure (a tool it needs missing), with why. */
const skippedScenarioCases = (classname: string, skipped: readonly SkippedScenario[], file: ScenarioFile): JunitCase[] =>
  skipped.map((s) => ({
    classname,
    name: `scenario ${s.scenario}`,
    outcome: { kind: 'skipped', message: `not measured: ${s.reason}` },
    out: skippedLine(s),
    ...fileOf(file, s.scenario),
  }));

/**
 * A verdict's case: failing ones fail; an inconclusive one is skipped with 'needs a look' (both
 * readers show skipped apart from passed: dorny/test-reporter's JavaJunitParser knows only failed,
 * skipped and success, action-junit-report counts skipped on its own); what was not judged
 * (information, new, not measured) is skipped; the rest pass.
 */
function verdictCase(classname: string, v: Verdict, failing: ReadonlySet<Verdict>, file: ScenarioFile): JunitCase {
  const reason = [changeLine(v), v.reason].filter(Boolean).join(': ');
  const base = { classname, name: v.id, out: `${verdictLabel(v)}: ${reason}`, ...fileOf(file, (v.current ?? v.baseline)?.scenario ?? '') };
  if (failing.has(v)) return { ...base, outcome: { kind: 'failure', type: v.verdict, message: reason } };
  if (v.verdict === 'inconclusive' && !informational(v)) return { ...base, outcome: { kind: 'skipped', message: `needs a look (inconclusive): ${reason}` } };
  if (informational(v)) return { ...base, outcome: { kind: 'skipped', message: `not judged: ${v.reason}` } };
  if (v.verdict === 'new') return { ...base, outcome: { kind: 'skipped', message: `no baseline value: ${v.reason}` } };
  if (v.verdict === 'missing') return { ...base, outcome: { kind: 'skipped', message: `not measured: ${v.reason}` } };
  return { ...base, outcome: { kind: 'passed' } };
}

/**
 * A refused comparison (exit 3: a mismatch, nothing to judge) as one failed case, so that the pane
 * is not all skipped cases while the job fails; no comparison at all (no baseline, not required) is none.
 */
function refusedCase(classname: string, comparison: ReportInput['comparison']): JunitCase[] {
  if (comparison?.refused == null) return [];
  return [{ classname, name: 'baseline comparison', outcome: { kind: 'failure', type: 'refused', message: comparison.refused }, out: comparison.refused }];
}

/**
 * A run (perf) or stored run (compare) with its comparison: a case per verdict, or per metric,
 * skipped, when nothing judged it; a skipped case per scenario the run skipped; a failed one per
 * failed check.
 */
export function recordSuite({ record, comparison }: ReportInput): JunitSuite {
  const profile = record.profile.id;
  const classname = junitClassname(profile);
  const unjudged = comparison === null ? `no baseline for profile ${profile}` : comparison.refused;
  const failing = new Set(comparison ? failingVerdicts(comparison.verdicts, record.selection) : []);
  const file = scenarioFiles(record);
  // A baseline metric of a scenario this run did not select is not news: one line for all, not a case each (issue 40: "445 ran, 444 skipped").
  const unselected = (v: Verdict) => v.verdict === 'missing' && v.baseline !== null && !ranScenario(record.selection, v.baseline.scenario);
  const verdicts = comparison?.verdicts ?? [];
  const left = verdicts.filter(unselected);
  const cases =
    comparison === null || comparison.refused !== null
      ? record.metrics.map(
          (m): JunitCase => ({
            classname,
            name: m.id,
            outcome: { kind: 'skipped', message: `not judged: ${unjudged}` },
            out: formatValue(m),
            ...fileOf(file, m.scenario),
          }),
        )
      : verdicts.filter((v) => !unselected(v)).map((v) => verdictCase(classname, v, failing, file));
  const notSelected: JunitCase[] =
    left.length === 0
      ? []
      : [
          {
            classname,
            name: `${left.length} baseline metric(s) of scenarios this run did not select`,
            outcome: { kind: 'skipped', message: `not measured: this run selected ${record.selection?.join(', ') ?? 'every scenario'}` },
            out: [...new Set(left.map((v) => v.baseline!.scenario))].sort().join(', '),
          },
        ];
  return {
    name: `gpu-transfer-perf ${profile}`,
    timestamp: record.createdAt,
    // The measuring process's wall time where the record has it (its noise diagnostics), else 0.
    seconds: record.diagnostics && record.diagnostics.length > 0 ? record.diagnostics.reduce((t, d) => t + d.wallMs, 0) / 1000 : null,
    properties: [
      ['profile', profile],
      ['scale', record.scale],
      ['commit', `${record.git.commit ?? 'unknown'}${record.git.dirty ? ' (dirty)' : ''}`],
      ...(comparison ? [['baseline profile', comparison.baselineProfile] as const] : []),
    ],
    cases: [
      ...refusedCase(classname, comparison),
      ...cases,
      ...notSelected,
      ...skippedScenarioCases(classname, record.skipped ?? [], file),
      ...errorCases(classname, record.errors, file),
    ],
  };
}

/**
 * The harness's own scenario files by id (perf/; junit.test.ts checks each against the folder): the
 * timed .perf.ts where a scenario has both a spec and a perf file (its timed figures are what regress).
 */
const BUILT_IN_FILES: ReadonlyMap<string, string> = new Map([
  ['mnist-loader', 'perf/01-mnist-loader.spec.ts'],
  ['cpu-normalize', 'perf/02-cpu-normalize.spec.ts'],
  ['cpu-normalize-profile', 'perf/03-cpu-normalize-profile.spec.ts'],
  ['device-normalize', 'perf/04-device-normalize.spec.ts'],
  ['device-normalize-profile', 'perf/05-device-normalize-profile.spec.ts'],
  ['alternatives', 'perf/06-alternatives.perf.ts'],
  ['speedup', 'perf/06-speedup.perf.ts'],
  ['stages', 'perf/06-stages.perf.ts'],
  ['coco', 'perf/07-coco.perf.ts'],
  ['kinetics', 'perf/08-kinetics.perf.ts'],
  ['memory', 'perf/09-memory.spec.ts'],
  ['training', 'perf/10-training.spec.ts'],
  ['crop-mirror-normalize', 'perf/11-crop-mirror-normalize.spec.ts'],
  ['dtype-stages', 'perf/11-dtype-stages.perf.ts'],
  ['dtypes', 'perf/11-dtypes.perf.ts'],
  ['sweep', 'perf/12-sweep.perf.ts'],
  ['best-practices', 'perf/13-best-practices.spec.ts'],
  ['soak', 'perf/13-soak.spec.ts'],
]);

/**
 * The perf file of a scenario: the selected file that is its (a partial run names them), else
 * perf/ and the built-in file's name where the scenario is one of the harness's (BUILT_IN_FILES);
 * undefined when unknown (a user's own scenario in a full run).
 */
function scenarioFiles(record: ReportInput['record']): ScenarioFile {
  return (scenario) => record.selection?.find((path) => ranScenario([path], scenario)) ?? BUILT_IN_FILES.get(scenario);
}

/** An A/B: a case per judged metric, `ab <metric id>` (a regression fails), and one failed case per error of a process. */
export function abSuite(result: AbResult): JunitSuite {
  const classname = junitClassname(result.profile ?? 'unknown-profile');
  const verdicts = result.verdicts.map(
    (v): JunitCase => ({
      classname,
      // Prefixed: a perf run's JUnit of the same runner holds a case named by the bare metric id.
      name: `ab ${v.id}`,
      outcome: v.verdict === 'regressed' ? { kind: 'failure', type: 'regressed', message: v.reason } : { kind: 'passed' },
      out: `${v.verdict}: head/base ${significant(1 + v.change, 4)} [${significant(1 + v.ci[0], 4)}, ${significant(1 + v.ci[1], 4)}], p ${v.p.toPrecision(2)}: ${v.reason}`,
    }),
  );
  const errors = result.errors.map(
    (e, i): JunitCase => ({ classname, name: `ab check: process error ${i + 1}`, outcome: { kind: 'failure', type: 'failed check', message: e }, out: e }),
  );
  return {
    name: `gpu-transfer-perf A/B ${result.head} vs ${result.base}`,
    timestamp: null,
    seconds: result.minutes * 60,
    properties: [
      ['base', result.base],
      ['head', result.head],
      ['processes', `${result.processes[0]} + ${result.processes[1]}`],
      ...(result.profile ? [['profile', result.profile] as const] : []),
    ],
    cases: [...verdicts, ...errors],
  };
}

/** `--junit FILE` on perf, compare and ab. */
export const junitExporter: Exporter = {
  format: 'junit',
  render: (input) => junitXml(recordSuite(input)),
  renderAb: (result) => junitXml(abSuite(result)),
};
