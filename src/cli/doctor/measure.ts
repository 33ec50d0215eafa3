import { writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { DoctorFileError } from '../../doctor/files.js';
import { armDeadline, HEALTH_EXIT, type ThisMachine, unknownLine, unknownWhy } from '../../doctor/health-check.js';
import type { NodeUploads } from '../../doctor/browser-section.js';
import type { DoctorSink } from '../../doctor/doctor.js';
import type { Check, DoctorReport, Envelope } from '../../doctor/schema.js';
import type { BrowserLaunch } from '../../runner/browser.js';
import { gitState } from '../../runner/git.js';
import { secondsSinceCommandStart } from '../filtered-stderr.js';
import type { DoctorPlan } from './plan.js';

/** What doctor measured (or read, or made), before it is judged. */
export type DoctorMeasured =
  /** --write-envelope: the envelope made, and the path it goes to (checked writable, not yet written). */
  | { readonly kind: 'envelope'; readonly envelope: Envelope; readonly path: string }
  /** --write-envelope from reports that cannot make one: one line, exit 2. */
  | { readonly kind: 'refused'; readonly message: string }
  /** A report: measured here, or the --from one; `here` is this machine where a --from report must be of it (--health-check). */
  | { readonly kind: 'report'; readonly report: DoctorReport; readonly here: ThisMachine | null }
  /** --health-check: could not measure (a bad --from report, or measuring threw): never a degraded node. */
  | { readonly kind: 'unknown'; readonly why: string };

/**
 * --browser: doctor's checks in Node, with the page's tfjs uploads timed on Node's running backend
 * too (the same sizes), then the browser's page in one launch; its checks on the console as the
 * Node checks are, and its section in the report.
 */
async function withBrowserChecked(
  plan: Extract<DoctorPlan, { mode: 'check' }>,
  browser: BrowserLaunch,
  sink: DoctorSink,
  runDoctorChecks: typeof import('../../doctor/doctor.js').runDoctorChecks,
): Promise<DoctorReport> {
  const { boundsOf, browserSection, pagePlan, withBrowser } = await import('../../doctor/browser-section.js');
  const { DEFAULT_PLAN, QUICK_PLAN, planFor } = await import('../../doctor/measurements.js');
  const { timeTensorUploads } = await import('../../doctor/tensor-uploads.js');
  const { bottleneckReading } = await import('../../doctor/physical/references.js');
  const { runDoctorPage } = await import('./browser-page.js');
  const full = plan.checks.quick ? QUICK_PLAN : DEFAULT_PLAN;
  let node: NodeUploads | null = null;
  const report = await runDoctorChecks(plan.checks, sink, async (context, maxBufferSize) => {
    sink.note(`timing tfjs float32 uploads on ${context.name} at doctor's sizes, to set the page's beside`);
    const timed = await timeTensorUploads(context, pagePlan(planFor(context, full, maxBufferSize)), Number.POSITIVE_INFINITY);
    node = { backend: context.name, uploads: timed.uploads, error: timed.error };
  });
  const started = performance.now();
  sink.note(
    `\nin ${browser.name} ${browser.version} (${browser.path}), one launch: WebGPU adapter and limits, WebGPU and WebGL started or why not, tfjs float32 uploads (synced; GB/s = 1e9 B/s)`,
  );
  const outcome = await runDoctorPage(browser, pagePlan(full));
  const gbps = report.physical?.verdict.linkLimitGBps ?? null;
  const bounds = boundsOf(report, gbps === null ? null : { gbps, reading: bottleneckReading(report.physical) });
  const { section, checks } = browserSection(browser, outcome, node, bounds, plan.checks.expectGpu);
  for (const check of checks) sink.check(check);
  return withBrowser(report, section, checks, (performance.now() - started) / 1000);
}

/** This machine as a doctor report's profile names its host (backend/hardware-profile.ts; loaded only here: it loads tfjs). */
async function thisMachine(): Promise<ThisMachine> {
  const { hostCpuModel } = await import('../../backend/hardware-profile.js');
  return { cpu: hostCpuModel(), cores: Math.max(1, availableParallelism()) };
}

/**
 * --health-check's --deadline, counted from the command's start: past it the process prints one
 * UNKNOWN line and exits 2, even when a device call never returns. Returns the function that cancels it.
 */
export function armHealthDeadline(deadline: number): () => void {
  return armDeadline(deadline, secondsSinceCommandStart(), () => {
    writeSync(1, `${unknownLine('this node', `no verdict within ${deadline} s, the --deadline; Slurm kills its HealthCheckProgram at 60 s`)}\n`);
    process.exit(HEALTH_EXIT.unknown);
  });
}

/**
 * The measure phase of `doctor`: runs the checks the plan names (on the console as they are found,
 * or silently for --health-check), or the envelope's doctor processes; nothing is written here.
 */
export async function measureDoctor(plan: DoctorPlan): Promise<DoctorMeasured> {
  switch (plan.mode) {
    case 'envelope': {
      const { DEFAULT_MARGIN, EnvelopeInputError, makeEnvelope } = await import('../../doctor/envelope-writer.js');
      try {
        const { out, from, processes, quick, backend, force } = plan;
        const made = await makeEnvelope({
          ...{ out, from, processes, quick, backend, force },
          margin: DEFAULT_MARGIN,
          includeBusy: false,
          note: null,
          // Doctor in processes of this same command: the node binary, its flags (tsx's loader) and this CLI's main script.
          selfCommand: [process.execPath, ...process.execArgv, process.argv[1]!],
          git: gitState().commit,
          say: (line) => console.log(line),
        });
        return { kind: 'envelope', ...made };
      } catch (error) {
        if (!(error instanceof EnvelopeInputError || error instanceof DoctorFileError)) throw error;
        return { kind: 'refused', message: error.message };
      }
    }
    case 'export':
      return { kind: 'report', report: plan.report, here: null };
    case 'health':
      try {
        if (plan.from === null) {
          const { runDoctorChecks } = await import('../../doctor/doctor.js');
          return { kind: 'report', report: await runDoctorChecks(plan.checks, { check: () => undefined, note: () => undefined }), here: null };
        }
        if ('unreadable' in plan.from) return { kind: 'unknown', why: plan.from.unreadable };
        return { kind: 'report', report: plan.from.report, here: plan.fromOtherMachine ? null : await thisMachine() };
      } catch (error) {
        return { kind: 'unknown', why: unknownWhy(error) };
      }
    case 'check': {
      const { runDoctorChecks } = await import('../../doctor/doctor.js');
      const { formatCheck } = await import('../../doctor/report.js');
      console.log(plan.heading);
      const sink = { check: (c: Check) => console.log(formatCheck(c, plan.color)), note: (line: string) => console.log(line) };
      if (!plan.browser) return { kind: 'report', report: await runDoctorChecks(plan.checks, sink), here: null };
      return { kind: 'report', report: await withBrowserChecked(plan, plan.browser, sink, runDoctorChecks), here: null };
    }
  }
}
