import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PageApi, PageFindings } from './browser/findings.js';
import { boundsOf, browserSection, type LaunchedBrowser, pagePlan, withBrowser } from './browser-section.js';
import { readDoctorReport } from './files.js';
import { QUICK_PLAN } from './measurements.js';
import { toPrometheusText } from './prometheus.js';
import { type Check, type DoctorReport, doctorReportSchema } from './schema.js';

const MiB = 1024 * 1024;
const CHROMIUM: LaunchedBrowser = { name: 'chromium', version: '156.0.8078.114', major: 156, path: '/usr/bin/chromium' };

/** Times (ms) that make `bytes` move at `gbps` (1e9 B/s) each repetition. */
const at = (bytes: number, gbps: number, reps = 3) => ({ bytes, times: Array.from({ length: reps }, () => bytes / gbps / 1e6) });

const started = (api: string, uploads: PageApi['uploads']): PageApi => ({ started: true, whyNot: null, running: api, uploads, uploadError: null });

/** What Chromium 156 with perf's flags gives on a machine without a GPU: SwiftShader, its description empty. */
const SWIFTSHADER: PageFindings = {
  userAgent: 'HeadlessChrome/156',
  secureContext: true,
  webgpu: {
    ...started('webgpu', [at(MiB, 0.1), at(64 * MiB, 0.3)]),
    adapter: {
      vendor: 'google',
      architecture: 'swiftshader',
      device: '',
      description: '',
      isFallbackAdapter: true,
      features: ['timestamp-query'],
      limits: { maxBufferSize: 1024 * MiB, maxStorageBufferBindingSize: 1024 * MiB, maxBindGroups: 4 },
    },
  },
  webgl: {
    ...started('webgl', [at(64 * MiB, 0.15)]),
    gl: { vendor: 'Google Inc. (Google)', renderer: 'ANGLE (Google, SwiftShader driver)', version: 'WebGL 2.0' },
  },
};

const NODE = { backend: 'webgpu', uploads: [at(64 * MiB, 0.6)], error: null };
const BOUNDS = { hostCopyGBps: 20, link: null };

const byId = (checks: readonly Check[]) => new Map(checks.map((c) => [c.id, c]));

describe('the browser section of doctor --browser', () => {
  it("asks the page for doctor's upload sizes with their warm-ups and repetitions", () => {
    expect(pagePlan(QUICK_PLAN).uploads).toEqual([
      { bytes: 64 * 1024, warmup: 2, reps: 30 },
      { bytes: MiB, warmup: 2, reps: 30 },
      { bytes: 16 * MiB, warmup: 2, reps: 10 },
      { bytes: 64 * MiB, warmup: 1, reps: 5 },
    ]);
  });

  it("names SwiftShader's adapter (Chromium leaves its description empty), its limits, both APIs started, and each upload rate beside Node's and the host copy", () => {
    const { section, checks } = browserSection(CHROMIUM, { findings: SWIFTSHADER }, NODE, BOUNDS, false);
    expect(section.adapter).toMatchObject({ name: 'swiftshader', isSoftware: true, isFallbackAdapter: true, limits: { maxBufferSize: 1024 * MiB } });
    expect(section.webgpu.uploads.map((f) => [f.id, f.unit, f.value])).toEqual([
      ['upload.1mib', 'GB/s', expect.closeTo(0.1, 9)],
      ['upload.64mib', 'GB/s', expect.closeTo(0.3, 9)],
    ]);
    expect(section.node?.uploads.map((f) => f.id)).toEqual(['upload.64mib']);
    const c = byId(checks);
    expect(c.get('browser.launch')).toMatchObject({ status: 'ok' });
    expect(c.get('browser.webgpu')).toMatchObject({ status: 'ok', reason: expect.stringMatching(/started; tfjs runs on webgpu \(adapter swiftshader\)/) });
    expect(c.get('browser.webgpu.adapter')?.reason).toMatch(/google \/ swiftshader; driver \(as Chromium reports it\): none \(empty; swiftshader\)/);
    expect(c.get('browser.webgpu.software')).toMatchObject({ status: 'warn', reason: expect.stringMatching(/--browser-path/) });
    expect(c.get('browser.webgpu.limits')?.reason).toMatch(/maxBufferSize 1,024 MiB, maxStorageBufferBindingSize 1,024 MiB/);
    expect(c.get('browser.webgl')).toMatchObject({ status: 'ok', reason: expect.stringMatching(/renderer ANGLE \(Google, SwiftShader driver\)/) });
    const upload = c.get('browser.webgpu.upload')?.reason;
    expect(upload).toMatch(/1 MiB 0\.100 GB\/s, 64 MiB 0\.300 GB\/s; Node \(webgpu, this run\) at 64 MiB: 0\.600 GB\/s, the page reaches 0\.50 of it/);
    expect(upload).toMatch(/0\.015 of the host memory copy \(20\.0 GB\/s\): the API's staging path binds/);
    expect(c.get('browser.webgl.upload')?.reason).toMatch(/WebGL tfjs float32 uploads .*64 MiB 0\.150 GB\/s/);
  });

  it('sets the page rate against the PCIe link where sysfs shows one, named by its generation and width', () => {
    const link = { gbps: 31.5, reading: { speedText: '16.0 GT/s PCIe', gts: 16, width: 16 } };
    const { checks } = browserSection(CHROMIUM, { findings: SWIFTSHADER }, NODE, { hostCopyGBps: 20, link }, false);
    expect(byId(checks).get('browser.webgpu.upload')?.reason).toMatch(
      /that rate \(0\.300 GB\/s\) is 0\.0095 of the Gen4 x16 link \(31\.5 GB\/s, computed from sysfs\) and 0\.015 of the host memory copy/,
    );
  });

  it('--expect-gpu fails a software adapter in the browser, as in Node', () => {
    const { checks } = browserSection(CHROMIUM, { findings: SWIFTSHADER }, NODE, BOUNDS, true);
    expect(byId(checks).get('browser.webgpu.software')?.status).toBe('fail');
  });

  it('WebGPU missing in the browser is a finding with its reason (a warning), not a crash; WebGL still checked', () => {
    const whyNot = 'navigator.gpu.requestAdapter() gave null: no adapter (GPU blocklisted, or WebGPU disabled: see chrome://gpu)';
    const findings: PageFindings = { ...SWIFTSHADER, webgpu: { started: false, whyNot, running: null, uploads: [], uploadError: null, adapter: null } };
    const { section, checks } = browserSection(CHROMIUM, { findings }, NODE, BOUNDS, false);
    const c = byId(checks);
    expect(c.get('browser.webgpu')).toEqual({ id: 'browser.webgpu', status: 'warn', reason: `webgpu in chromium 156: unavailable: ${whyNot}` });
    expect([...c.keys()].filter((id) => id.startsWith('browser.webgpu.'))).toEqual([]);
    expect(section.adapter).toBeNull();
    expect(c.get('browser.webgl.upload')?.status).toBe('info');
    expect(checks.some((check) => check.status === 'fail')).toBe(false);
  });

  it('WebGL that tfjs fell back from is named with what tfjs runs on', () => {
    const whyNot = 'asked for webgl, but tfjs initialized it and runs on webgpu: refused';
    const findings: PageFindings = { ...SWIFTSHADER, webgl: { started: false, whyNot, running: 'webgpu', uploads: [], uploadError: null, gl: null } };
    const reason = byId(browserSection(CHROMIUM, { findings }, NODE, BOUNDS, false).checks).get('browser.webgl')?.reason;
    expect(reason).toBe(`webgl in chromium 156: unavailable: ${whyNot}; tfjs runs on webgpu`);
  });

  it('a lost page fails the run with its reason, and the report keeps what Node found', () => {
    const lost = "doctor's page in Chromium 156: no result after 5 s (--browser-timeout): the page hung";
    const { section, checks } = browserSection(CHROMIUM, { lost }, NODE, BOUNDS, false);
    expect(checks).toEqual([{ id: 'browser.launch', status: 'fail', reason: `chromium 156.0.8078.114 (/usr/bin/chromium): ${lost}` }]);
    const report = {
      settings: { backend: 'auto', quick: true, expectGpu: false },
      checks: [],
      figures: [],
      durationSeconds: 4,
      exitCode: 0,
    } as unknown as DoctorReport;
    const merged = withBrowser(report, section, checks, 6);
    expect(merged).toMatchObject({ exitCode: 1, durationSeconds: 10, settings: { browser: 'chromium' }, browser: { lost } });
    expect(withBrowser(report, browserSection(CHROMIUM, { findings: SWIFTSHADER }, NODE, BOUNDS, false).section, [], 1).exitCode).toBe(0);
  });

  it("keeps the report readable as schema 3, its checks' states in the Prometheus textfile as every check's", async () => {
    const report = await readDoctorReport(join(import.meta.dirname, '../../fixtures/runs/h200-2026-12-04/doctor-1.json'));
    const { section, checks } = browserSection(CHROMIUM, { findings: SWIFTSHADER }, NODE, BOUNDS, false);
    const merged = withBrowser({ ...report, schemaVersion: 3 }, section, checks, 30);
    expect(doctorReportSchema.parse(JSON.parse(JSON.stringify(merged)))).toEqual(merged);
    const text = toPrometheusText(merged, { version: '0.1.0', revision: null });
    expect(text).toMatch(/^gtp_doctor_check_state\{check="browser\.webgpu",.*gtp_doctor_check_state="ok"\} 1$/m);
    expect(text).toMatch(/^gtp_doctor_check_state\{check="browser\.webgpu\.software",.*gtp_doctor_check_state="warn"\} 1$/m);
  });

  it("reads the machine's bounds from a report: the host copy figure and the link given", () => {
    const figures = [{ id: 'host-copy.64mib', label: 'host memory copy 64 MiB', value: 24.7, unit: 'GB/s' as const, n: 5, detail: '' }];
    expect(boundsOf({ figures }, { gbps: 63, reading: null })).toEqual({ hostCopyGBps: 24.7, link: { gbps: 63, reading: null } });
    expect(boundsOf({ figures: [] }, null)).toEqual({ hostCopyGBps: null, link: null });
  });
});
