/**
 * `gtp doctor --browser chromium`, Node's side of it on plain values: the page's plan (doctor's
 * upload sizes), and the browser section of the report with its checks, from what the page found
 * (browser/findings.ts), Node's same uploads in this run and the machine's references (the host
 * memory copy, the PCIe link where sysfs shows one). Nothing here starts a browser or a device.
 */
import { adapterName, softwareAdapterName } from '../backend/fingerprint.js';
import { EXIT } from '../results/exit.js';
import { referencesClause, type UploadReferences } from '../results/upload-references.js';
import type { PageApi, PageFindings, PagePlan, PageUpload } from './browser/findings.js';
import { type AdapterWhere, checkWebGpuAdapter } from './checks.js';
import { formatFigure } from './envelope.js';
import { bandwidthFigure, type MeasurementPlan, sizeId, sizeLabel, warmupFor } from './measurements.js';
import { linkName } from './physical/references.js';
import type { LinkReading } from './physical/pcie.js';
import type { BrowserSection, Check, DoctorReport, Figure } from './schema.js';
import { TENSOR_UPLOAD_PATH } from './tensor-uploads.js';

/** The page's upload sizes: the plan's (doctor's --quick or default sizes), each with its warm-up and repetitions. */
export function pagePlan(plan: MeasurementPlan): PagePlan {
  return { uploads: plan.uploadSizes.map((bytes) => ({ bytes, warmup: warmupFor(bytes), reps: plan.repsFor(bytes) })) };
}

/** The browser doctor launched, as the section names it. */
export interface LaunchedBrowser {
  readonly name: string;
  readonly version: string;
  readonly major: number;
  readonly path: string;
}

/** One launch: what the page found, or why it found nothing (the browser crashed, the page hung). */
export type BrowserOutcome = { readonly findings: PageFindings } | { readonly lost: string };

/** Node's same tfjs uploads in this doctor run, on its running backend; null when no backend started. */
export interface NodeUploads {
  readonly backend: string;
  readonly uploads: readonly PageUpload[];
  readonly error: string | null;
}

/** The machine's bounds an upload rate is read against: the host memory copy (measured) and the PCIe link (sysfs), each when known. */
export interface MachineBounds {
  readonly hostCopyGBps: number | null;
  readonly link: { readonly gbps: number; readonly reading: LinkReading | null } | null;
}

/** The machine's bounds from a doctor report: its host-copy figure and its physical verdict's link limit at the bottleneck. */
export function boundsOf(report: Pick<DoctorReport, 'figures'>, link: MachineBounds['link']): MachineBounds {
  return { hostCopyGBps: report.figures.find((f) => f.id.startsWith('host-copy.'))?.value ?? null, link };
}

const UPLOAD_LABEL = 'tfjs float32 upload ';
/** An upload figure's size, as its label says it ('64 MiB'). */
const sizeOf = (figure: Figure): string => figure.label.slice(UPLOAD_LABEL.length);

/** A list of timed uploads as figures (upload.<size>, GB/s = 1e9 B/s), `where` saying where they ran. */
export function uploadFigures(uploads: readonly PageUpload[], where: string): Figure[] {
  return uploads.map((u) =>
    bandwidthFigure(sizeId('upload', u.bytes), `${UPLOAD_LABEL}${sizeLabel(u.bytes)}`, u.bytes, u.times, `${where}: ${TENSOR_UPLOAD_PATH}`),
  );
}

const API_TITLE = { webgpu: 'WebGPU', webgl: 'WebGL' } as const;

function softwareHint(browser: LaunchedBrowser): string {
  return `doctor launches ${browser.name} with SwiftShader flags; on a GPU machine point --browser-path at its Chrome or Chromium and drop them (docs/backends.md, "A real GPU in a desktop browser")`;
}

/** The upload line of one API: the page's rates, Node's at the largest size, and the references. */
function uploadCheck(
  api: 'webgpu' | 'webgl',
  browser: LaunchedBrowser,
  page: readonly Figure[],
  state: PageApi,
  node: NodeUploads | null,
  nodeFigures: readonly Figure[],
  bounds: MachineBounds,
): Check {
  const id = `browser.${api}.upload`;
  const where = `${browser.name} ${browser.major} ${API_TITLE[api]}`;
  if (page.length === 0) return { id, status: 'warn', reason: `${where}: no upload measured${state.uploadError ? `: ${state.uploadError}` : ''}` };
  const rates = page.map((f) => `${sizeOf(f)} ${formatFigure(f)}`).join(', ');
  const largest = page.at(-1)!;
  const same = nodeFigures.find((f) => f.id === largest.id);
  const nodePart = same
    ? `; Node (${node!.backend}, this run) at ${sizeOf(largest)}: ${formatFigure(same)}, the page reaches ${(largest.value / same.value).toPrecision(2)} of it`
    : node
      ? `; Node (${node.backend}) did not reach ${sizeOf(largest)}${node.error ? ` (${node.error})` : ''}`
      : '; Node: no backend started, no rate to set beside it';
  const refs: UploadReferences = {
    api: { kind: 'api-upload', gbps: largest.value, name: `${where}'s tfjs upload rate`, source: 'measured', from: null },
    hostCopy:
      bounds.hostCopyGBps === null ? null : { kind: 'host-copy', gbps: bounds.hostCopyGBps, name: 'the host memory copy', source: 'measured', from: null },
    link: bounds.link === null ? null : { kind: 'pcie-link', gbps: bounds.link.gbps, name: linkName(bounds.link.reading), source: 'computed', from: null },
  };
  const clause = referencesClause(refs);
  const stopped = state.uploadError ? `; stopped short: ${state.uploadError}` : '';
  return {
    id,
    status: state.uploadError ? 'warn' : 'info',
    reason: `${where} tfjs float32 uploads (synced; GB/s = 1e9 B/s, higher is faster): ${rates}${nodePart}${clause ? `; ${clause}` : ''}${stopped}`,
  };
}

/** Whether an API started in the page, or why not (a finding, never a crash). */
function apiCheck(api: 'webgpu' | 'webgl', browser: LaunchedBrowser, state: PageApi, what: string | null): Check {
  const where = `${api} in ${browser.name} ${browser.major}`;
  if (state.started) return { id: `browser.${api}`, status: 'ok', reason: `${where}: started; tfjs runs on ${state.running}${what ? ` (${what})` : ''}` };
  const running = state.running && state.running !== api ? `; tfjs runs on ${state.running}` : '';
  return { id: `browser.${api}`, status: 'warn', reason: `${where}: unavailable: ${state.whyNot ?? 'no reason given'}${running}` };
}

/**
 * The browser section and its checks: the launch (a lost page fails, with its reason), whether
 * WebGPU and WebGL started in the page and why not (warnings: a finding, not a failure), the
 * adapter's info and limits (checks.ts checkWebGpuAdapter, as Node's adapter is checked), and each
 * API's upload rates beside Node's same uploads and the machine's references.
 */
export function browserSection(
  browser: LaunchedBrowser,
  outcome: BrowserOutcome,
  node: NodeUploads | null,
  bounds: MachineBounds,
  expectGpu: boolean,
): { section: BrowserSection; checks: Check[] } {
  const base = { name: browser.name, version: browser.version, path: browser.path };
  const launch = `${browser.name} ${browser.version} (${browser.path})`;
  if ('lost' in outcome) {
    const empty = { started: false, whyNot: 'not found: the page gave no findings', running: null, uploads: [], uploadError: null };
    return {
      section: { ...base, lost: outcome.lost, userAgent: null, adapter: null, webgpu: empty, webgl: { ...empty, gl: null }, node: null },
      checks: [{ id: 'browser.launch', status: 'fail', reason: `${launch}: ${outcome.lost}` }],
    };
  }
  const { findings } = outcome;
  const nodeFigures = node ? uploadFigures(node.uploads, `Node, ${node.backend} backend, this doctor run`) : [];
  const pageFigures = (api: 'webgpu' | 'webgl') => uploadFigures(findings[api].uploads, `${browser.name} ${browser.major} page, ${api} backend`);
  const a = findings.webgpu.adapter;
  const adapter = a ? { ...a, name: adapterName(a), isSoftware: softwareAdapterName(a) !== null, features: [...a.features], limits: { ...a.limits } } : null;
  const checks: Check[] = [
    { id: 'browser.launch', status: 'ok', reason: `${launch}: doctor's page ran in one launch (vitest browser mode, headless, perf's flags)` },
    apiCheck('webgpu', browser, findings.webgpu, adapter ? `adapter ${adapter.name}` : null),
  ];
  if (adapter) {
    const where: AdapterWhere = {
      idPrefix: 'browser.',
      reportedBy: browser.name === 'chromium' ? 'Chromium' : browser.name,
      softwareHint: softwareHint(browser),
    };
    const facts = {
      ...adapter,
      maxBufferSize: adapter.limits.maxBufferSize ?? 0,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize ?? 0,
    };
    checks.push(...checkWebGpuAdapter(facts, expectGpu, where));
  }
  const gl = findings.webgl.gl;
  checks.push(apiCheck('webgl', browser, findings.webgl, gl ? `renderer ${gl.renderer}` : null));
  const api = (name: 'webgpu' | 'webgl') => ({
    started: findings[name].started,
    whyNot: findings[name].whyNot,
    running: findings[name].running,
    uploads: pageFigures(name),
    uploadError: findings[name].uploadError,
  });
  const webgpu = api('webgpu');
  const webgl = api('webgl');
  for (const [name, state] of [
    ['webgpu', webgpu],
    ['webgl', webgl],
  ] as const)
    if (state.started) checks.push(uploadCheck(name, browser, state.uploads, findings[name], node, nodeFigures, bounds));
  return {
    section: {
      ...base,
      lost: null,
      userAgent: findings.userAgent,
      adapter,
      webgpu,
      webgl: { ...webgl, gl },
      node: node ? { backend: node.backend, uploads: nodeFigures } : null,
    },
    checks,
  };
}

/**
 * The report with its browser section and checks, and the `seconds` the browser's part took added to
 * its duration; a failed browser check fails the run (exit 1), as any failed check does.
 */
export function withBrowser(report: DoctorReport, section: BrowserSection, checks: readonly Check[], seconds: number): DoctorReport {
  const failed = checks.some((c) => c.status === 'fail');
  return {
    ...report,
    settings: { ...report.settings, browser: section.name },
    checks: [...report.checks, ...checks],
    browser: section,
    durationSeconds: report.durationSeconds + seconds,
    exitCode: failed ? EXIT.regression : report.exitCode,
  };
}
