/**
 * `gtp doctor --health-check`: a doctor report read as a node health check, the contract shared
 * by LBNL NHC check functions, Slurm's HealthCheckProgram and Kubernetes node-problem-detector's
 * custom plugins:
 *   - healthy: silent, exit 0;
 *   - a failed check: one line `ERROR gtp doctor: <device> <what failed> (<figures>)`, exit 1
 *     (node-problem-detector: 1 is NonOK, pkg/custompluginmonitor/types/types.go);
 *   - could not measure: one line `UNKNOWN gtp doctor: ...`, exit 2 (node-problem-detector: 2 is
 *     Unknown, never a problem; an NHC check function passes it by), so a broken tool or a run
 *     out of time never reads as a degraded node.
 * The tool drains nothing: NHC or the caller decides (Slurm: "any action to be taken must be
 * explicitly performed by the program", slurm.conf HealthCheckProgram).
 */
import { bdfOfCheckId, pciIds, unjudgedCheck } from './physical/judge.js';
import { generationOf } from './physical/pcie.js';
import { bottleneckOf } from './physical/references.js';
import { matchedBdf } from './physical/section.js';
import type { Check, DoctorReport, PhysicalSection } from './schema.js';

/**
 * Seconds from process start to a verdict: Slurm kills HealthCheckProgram after 60 s (slurm.conf
 * man page); 50 leaves 10 for the caller (NHC's own start, a wrapper's `timeout`) (*ours*).
 */
export const HEALTH_DEADLINE_SECONDS = 50;

/** Exit codes of the contract (node-problem-detector's OK, NonOK, Unknown). */
export const HEALTH_EXIT = { healthy: 0, failed: 1, unknown: 2 } as const;

export interface HealthVerdict {
  readonly exitCode: 0 | 1 | 2;
  /** The one line to print (stdout), or null when healthy. */
  readonly line: string | null;
}

/**
 * Checks of the tool's own installation (Node, its packages, the wasm binary, a broken envelope
 * file): their failure says nothing about the node's device, so it is "could not measure".
 */
export const TOOL_CHECKS: ReadonlySet<string> = new Set(['node', 'packages', 'packages.tfjs-copies', 'backend.wasm', 'envelope']);

/** 'gen3 x8' style for a reading; '?' where unknown. */
function linkText(reading: { gts: number | null; width: number | null }): string {
  const gen = reading.gts === null ? null : generationOf(reading.gts);
  const speed = reading.gts === null ? '? GT/s' : `${reading.gts.toFixed(1)} GT/s`;
  return `${gen ? `Gen${gen} ` : ''}x${reading.width ?? '?'} ${speed}`;
}

/** '0000:1a:00.0 (10de:2330)': a device by its PCI address and ids, as doctor's own lines name it. */
function deviceName(physical: PhysicalSection, bdf: string): string {
  const d = physical.devices.find((x) => x.bdf === bdf);
  return d ? `${bdf} (${pciIds(d)})` : bdf;
}

/** The device a check is about: its own PCI address for physical.link.<bdf>, else the adapter measured, else the profile. */
export function deviceOf(report: DoctorReport, check: Check | null): string {
  const physical = report.physical;
  const link = check ? bdfOfCheckId(check.id) : null;
  if (physical && link) return deviceName(physical, link);
  const matched = matchedBdf(physical);
  if (physical && matched) return deviceName(physical, matched);
  return report.profile?.id ?? 'this node';
}

/** What failed and its figures, for a degraded link: the path's rate as trained and as capable, and the hop that limits it. */
function linkFailure(physical: PhysicalSection, bdf: string): { what: string; figures: string } | null {
  const link = physical.verdict.links.find((l) => l.bdf === bdf);
  if (link?.verdict !== 'degraded' || link.currentGBps === null || link.capableGBps === null) return null;
  const { hop, reading: current } = bottleneckOf(physical, bdf) ?? { hop: null, reading: null };
  const at = hop && current ? `; ${hop.bdf} at ${linkText(current)}, capable ${linkText(hop.max)}` : '';
  return { what: 'PCIe link degraded', figures: `${link.currentGBps.toFixed(1)} of ${link.capableGBps.toFixed(1)} GB/s${at}` };
}

/** One line of text (a reason may in principle hold a line break; the contract is one line). */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');

/** The line for a failed check: the link's figures where it is one, else the check's id and reason. */
function failureLine(report: DoctorReport, check: Check, others: readonly Check[]): string {
  const bdf = bdfOfCheckId(check.id, 'link');
  const link = report.physical && bdf ? linkFailure(report.physical, bdf) : null;
  const { what, figures } = link ?? { what: `${check.id} failed`, figures: check.reason };
  const also = others.length > 0 ? `; also failed: ${others.map((c) => c.id).join(', ')}` : '';
  return oneLine(`ERROR gtp doctor: ${deviceOf(report, check)} ${what} (${figures})${also}`);
}

/** The `UNKNOWN gtp doctor: <device> could not measure (<why>)` line. */
export function unknownLine(device: string, why: string): string {
  return oneLine(`UNKNOWN gtp doctor: ${device} could not measure (${why})`);
}

/** Why the tool could not measure, from what it threw: `<name>: <message>` for the UNKNOWN line. */
export function unknownWhy(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Whether a failed check says the tool could not measure rather than that the node is unwell: the
 * tool's own setup, or a backend that did not start unless --expect-gpu said a GPU must be there
 * (without it, a missing driver or Vulkan ICD is as likely a setup gap as a GPU gone).
 */
export function couldNotMeasure(check: Check, expectGpu: boolean): boolean {
  return TOOL_CHECKS.has(check.id) || (check.id === 'backend' && !expectGpu);
}

/**
 * The verdict of a report: a failed physical check (read from sysfs, whatever the tool's state)
 * is a failure; a check that says the tool could not measure (couldNotMeasure) makes every other
 * failure untrustworthy (a missing package stops the backend, a backend that did not start
 * measured nothing), so it is "could not measure"; any other failed check is a failure. Physical
 * failures are named first: they are what a node check is for.
 */
export function healthVerdict(report: DoctorReport): HealthVerdict {
  const failed = report.checks.filter((c) => c.status === 'fail');
  // A sysfs file that cannot be parsed leaves a device unknown (physical/judge.ts): could not judge, never healthy.
  const unjudged = unjudgedCheck(report.checks);
  if (failed.length === 0 && unjudged) return { exitCode: HEALTH_EXIT.unknown, line: unknownLine(deviceOf(report, null), unjudged.reason) };
  if (failed.length === 0) return { exitCode: HEALTH_EXIT.healthy, line: null };
  const physical = failed.filter((c) => c.id.startsWith('physical.'));
  const tool = failed.filter((c) => couldNotMeasure(c, report.settings.expectGpu));
  const device = tool.length > 0 ? physical : [...physical, ...failed.filter((c) => !c.id.startsWith('physical.'))];
  if (device.length > 0) return { exitCode: HEALTH_EXIT.failed, line: failureLine(report, device[0]!, device.slice(1)) };
  const first = tool[0]!;
  const more =
    tool.length > 1
      ? `; also failed: ${tool
          .slice(1)
          .map((c) => c.id)
          .join(', ')}`
      : '';
  return { exitCode: HEALTH_EXIT.unknown, line: unknownLine(deviceOf(report, null), `${first.id} failed: ${first.reason}${more}`) };
}

/** The machine a health check runs on, as a doctor report's profile names its host. */
export interface ThisMachine {
  readonly cpu: string;
  readonly cores: number;
}

/**
 * Why a report (`--from`) cannot stand for this machine's health, or null: it was made on another
 * one (another CPU model or core count than this machine's, as its profile records them), so its
 * verdict says nothing of this node: the health check is UNKNOWN, not healthy (issue 41, item 5).
 * A report with no profile (no backend started) names no machine: judged as it is.
 */
export function otherMachineReason(report: DoctorReport, here: ThisMachine): string | null {
  const p = report.profile;
  if (!p || (p.cpu === here.cpu && p.cores === here.cores)) return null;
  return `the --from report is of another machine: profile ${p.id} (${p.cpu}, ${p.cores} cores), and this machine has ${here.cpu}, ${here.cores} cores; pass --from-other-machine to judge it anyway`;
}

/**
 * Calls `expire` when `deadlineSeconds` from process start have passed (`elapsedSeconds` already
 * have); returns the function that cancels it. The timer keeps the process alive until then: a
 * device call that never returns still ends in a verdict.
 */
export function armDeadline(deadlineSeconds: number, elapsedSeconds: number, expire: () => void): () => void {
  const timer = setTimeout(expire, Math.max(0, (deadlineSeconds - elapsedSeconds) * 1000));
  return () => clearTimeout(timer);
}
