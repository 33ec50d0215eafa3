import { HEALTH_EXIT, unknownLine, unknownWhy } from '../../doctor/health-check.js';
import type { BuildInfo } from '../../doctor/prometheus.js';
import type { DoctorReport } from '../../doctor/schema.js';
import { writeJsonOutput, writeOutput } from '../../results/output-guard.js';
import { gitState } from '../../runner/git.js';
import type { DoctorJudged } from './judge.js';
import type { DoctorPlan } from './plan.js';

/** The harness's version (its package.json: three folders up from src/cli/doctor/ here, dist/cli/doctor/ in the package) and commit, for gtp_doctor_build_info. */
async function buildInfo(): Promise<BuildInfo> {
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return { version: manifest.version, revision: gitState().commit };
}

/** Writes the report as a node-exporter textfile: a temp name beside it (not *.prom, which the collector would read half-written), then a rename. */
async function writePrometheus(path: string, report: DoctorReport): Promise<void> {
  const { toPrometheusText } = await import('../../doctor/prometheus.js');
  await writeOutput(path, toPrometheusText(report, await buildInfo()));
}

/**
 * --health-check's outputs: the evidence behind the verdict (--prometheus, --json) for whoever
 * looks at a drained node, then the verdict's line; a file that cannot be written is UNKNOWN (exit 2).
 */
async function writeHealth(plan: Extract<DoctorPlan, { mode: 'health' }>, judged: DoctorJudged): Promise<number> {
  if (judged.kind === 'report') {
    try {
      if (plan.prometheus) await writePrometheus(plan.prometheus, judged.report);
      if (plan.json) await writeJsonOutput(plan.json, judged.report);
    } catch (error) {
      console.log(unknownLine('this node', unknownWhy(error)));
      return HEALTH_EXIT.unknown;
    }
  }
  if (judged.line) console.log(judged.line);
  return judged.exitCode;
}

/** The checks' outputs: the failures again and the summary on the console, the report (--json) and the textfile (--prometheus). */
async function writeChecks(plan: Extract<DoctorPlan, { mode: 'check' }>, report: DoctorReport): Promise<void> {
  const { formatFailures, formatSummary } = await import('../../doctor/report.js');
  for (const line of formatFailures(report)) console.log(line);
  console.log(`\n${formatSummary(report)}`);
  if (plan.json) {
    await writeJsonOutput(plan.json, report);
    console.log(`report: ${plan.json}`);
  }
  if (plan.prometheus) {
    await writePrometheus(plan.prometheus, report);
    console.log(`prometheus textfile: ${plan.prometheus}`);
  }
}

/** The write phase of `doctor`: every output the plan named, each said on the console as it is written; then the exit code. */
export async function writeDoctor(plan: DoctorPlan, judged: DoctorJudged): Promise<number> {
  if (plan.mode === 'health') return writeHealth(plan, judged);
  if (judged.kind === 'refused') {
    console.error(`error: ${judged.message}`);
    return judged.exitCode;
  }
  if (plan.mode === 'envelope' && judged.kind === 'envelope') {
    await writeJsonOutput(judged.path, judged.envelope);
    console.log(`envelope of ${judged.envelope.profile}: ${plan.out} (commit it beside the profile's baseline)`);
  } else if (plan.mode === 'export' && judged.kind === 'report') {
    const { formatSummary } = await import('../../doctor/report.js');
    await writePrometheus(plan.prometheus, judged.report);
    console.log(`${formatSummary(judged.report)} (from ${plan.from})`);
    console.log(`prometheus textfile: ${plan.prometheus}`);
  } else if (plan.mode === 'check' && judged.kind === 'report') {
    await writeChecks(plan, judged.report);
  } else {
    throw new Error(`doctor: a ${judged.kind} result does not go with the ${plan.mode} plan`);
  }
  return judged.exitCode;
}
