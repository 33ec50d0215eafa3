import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { BackendUnavailableError } from '../backend/errors.js';
import { isTensorflowInstalled } from '../backend/host-backends.js';
import { describeBackend, startBackend } from '../backend/start.js';
import type { BackendChoice, BackendContext, BackendName } from '../backend/types.js';
import { maxAbsDiff } from '../measure/statistics.js';
import { describeHardwareProfile } from '../backend/hardware-profile.js';
import { describeCapabilities } from '../transfer/capabilities.js';
import { ARTICLE_NORMALIZATION, normalizeOnHost } from '../transfer/normalization.js';
import { deviceNormalize } from '../transfer/strategies/strategies.js';
import {
  checkCpuBackend,
  checkCudaLibraries,
  checkExpectGpu,
  checkHostLoad,
  checkNode,
  checkPackages,
  checkTensorflowBackend,
  checkWasmBackend,
  checkWebGpuAdapter,
  checkWebGpuBackend,
  type WebGpuFacts,
} from './checks.js';
import { CUDA_LIBRARIES, locateLibraries, readLdconfigCache } from './cuda.js';
import { envelopePathFor, formatFigure, judgeFigure, noEnvelopeCheck, readEnvelope } from './envelope.js';
import { DoctorFileError } from './files.js';
import { measureHostLoad } from './host-load.js';
import { DEFAULT_PLAN, measureFigures, QUICK_PLAN } from './measurements.js';
import { installedVersion } from './packages.js';
import { type Check, DOCTOR_REPORT_VERSION, type DoctorReport, type Envelope, type Figure, type ProfileSummary } from './schema.js';
import { probeWebGpu, runningWebGpuFacts } from './webgpu-facts.js';
import { EXIT } from '../results/exit.js';

/** What doctor is asked to do (from the command line). */
export interface DoctorOptions {
  readonly backend: BackendChoice;
  readonly requireBackend: BackendName | null;
  readonly expectGpu: boolean;
  readonly quick: boolean;
  /** The dynamic loader's extra search path (LD_LIBRARY_PATH, as src/cli/args.ts reads it), where CUDA libraries may be found. */
  readonly ldLibraryPath: string | null;
}

/** Where doctor's lines go as they are found (the console, or nothing in tests). */
export interface DoctorSink {
  check(check: Check): void;
  note(line: string): void;
}

/**
 * The harness's root: this file is src/doctor/doctor.ts in the repository and the kit, and
 * dist/doctor/doctor.js in the built package (node_modules/gpu-transfer-perf in a user's project).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Running the sources (under tsx, which then must be installed) rather than the built dist/. */
const FROM_SOURCES = import.meta.url.endsWith('.ts');

/** The device must compute the right thing: a packed-bytes normalize of all 256 byte values. */
async function checkNormalizeCorrect(): Promise<Check> {
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
  const out = deviceNormalize().toDevice({ images: bytes, shape: [1, 16, 16, 1] });
  const got = (await out.data()) as Float32Array;
  out.dispose();
  const worst = maxAbsDiff(got, normalizeOnHost(bytes, ARTICLE_NORMALIZATION));
  return worst <= 1e-6
    ? {
        id: 'device.correct',
        status: 'ok',
        reason: `the device computes the normalize kernel correctly (all 256 byte values, max abs error ${worst.toExponential(1)})`,
      }
    : {
        id: 'device.correct',
        status: 'fail',
        reason: `the device computes the normalize kernel WRONG (max abs error ${worst.toExponential(1)} > 1e-6): a driver or shader compiler fault`,
      };
}

/** Starts the asked-for backend; a failure is a failed check, not an exception. */
async function startAsked(options: DoctorOptions): Promise<{ context: BackendContext | null; check: Check }> {
  try {
    const context = await startBackend(options.backend, options.requireBackend);
    const fellBack = options.backend === 'auto' && !context.capabilities.hasGpuDevice;
    return { context, check: { id: 'backend', status: fellBack ? 'warn' : 'ok', reason: describeBackend(context) } };
  } catch (error) {
    if (!(error instanceof BackendUnavailableError)) throw error;
    return { context: null, check: { id: 'backend', status: 'fail', reason: `backend ${options.backend} does not start: ${error.message}` } };
  }
}

function summarize(context: BackendContext): ProfileSummary {
  const profile = describeHardwareProfile(context, describeCapabilities(context));
  return {
    id: profile.id,
    backend: profile.backend,
    adapter: profile.adapter ? profile.adapter.description || profile.adapter.device : null,
    isSoftware: profile.adapter?.isSoftware ?? null,
    cpu: profile.cpu.model,
    cores: profile.cpu.cores,
  };
}

/**
 * `npm run doctor`: checks the setup (Node, packages, every backend, the WebGPU adapter and its
 * limits, tfjs-node-gpu and the CUDA libraries), then measures transfer figures on the running
 * backend and judges each against the profile's envelope. Returns the whole report; its
 * exitCode is 1 when any check failed, else 0.
 */
export async function runDoctorChecks(options: DoctorOptions, sink: DoctorSink): Promise<DoctorReport> {
  const started = performance.now();
  const checks: Check[] = [];
  const add = (check: Check | null) => {
    if (!check) return;
    checks.push(check);
    sink.check(check);
  };

  // Sampled first, while nothing of doctor's own runs (no device threads yet).
  const host = await measureHostLoad();
  add(checkNode(process.version));
  const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as Parameters<typeof checkPackages>[0];
  add(checkPackages(manifest, (name) => installedVersion(ROOT, name), FROM_SOURCES));

  const { context, check: backendCheck } = await startAsked(options);
  add(backendCheck);
  const running = context?.name ?? null;
  let facts: WebGpuFacts | null = null;
  if (context?.capabilities.hasGpuDevice) {
    facts = runningWebGpuFacts(context);
    add(checkWebGpuBackend(facts, null, true));
  } else {
    const probe = await probeWebGpu();
    add(checkWebGpuBackend(probe.facts, probe.whyNot, false));
  }
  add(checkWasmBackend(ROOT, running === 'wasm'));
  add(checkCpuBackend(running === 'cpu'));
  const tfInstalled = isTensorflowInstalled();
  add(checkTensorflowBackend(tfInstalled, context?.isUsingGpuDevice ?? null, options.expectGpu));
  const ld = await readLdconfigCache();
  add(
    checkCudaLibraries(
      locateLibraries(CUDA_LIBRARIES, ld.output ?? '', options.ldLibraryPath ?? undefined),
      ld.error,
      tfInstalled,
      options.expectGpu && running === 'tensorflow',
    ),
  );
  if (facts) checkWebGpuAdapter(facts, options.expectGpu).forEach(add);
  if (running) add(checkExpectGpu(running, options.expectGpu));

  let figures: Figure[] = [];
  let profile: ProfileSummary | null = null;
  let envelopeInfo: DoctorReport['envelope'] = { path: null, found: false };
  if (context) {
    profile = summarize(context);
    const correct = await checkNormalizeCorrect();
    add(correct);
    if (correct.status !== 'fail') {
      // The envelope is read first: a broken file is a failed check, not a crash after measuring.
      const path = envelopePathFor(profile.id);
      let envelope: Envelope | null = null;
      try {
        envelope = await readEnvelope(path);
      } catch (error) {
        if (!(error instanceof DoctorFileError)) throw error;
        add({ id: 'envelope', status: 'fail', reason: `${error.message}; remake it with scripts/make-doctor-envelope.ts` });
      }
      envelopeInfo = { path, found: envelope !== null };
      sink.note(
        `measuring on ${profile.id}${options.quick ? ' (--quick)' : ''}: host->device curve, readback, device copy, normalize kernel, speedup pairs (synced, medians of repeats; GB/s = 1e9 B/s)`,
      );
      figures = await measureFigures(context, options.quick ? QUICK_PLAN : DEFAULT_PLAN, facts?.maxBufferSize ?? null);
      if (envelope) {
        const isSoftware = profile.isSoftware === true || profile.backend === 'wasm' || profile.backend === 'cpu';
        add(checkHostLoad(host));
        for (const figure of figures) add(judgeFigure(figure, envelope, { isSoftware, busy: host.busy }));
      } else {
        for (const figure of figures) add({ id: `figure.${figure.id}`, status: 'info', reason: `${figure.label}: ${formatFigure(figure)}` });
        if (!checks.some((c) => c.id === 'envelope')) add(noEnvelopeCheck(profile.id, path, options.backend === 'auto' ? null : options.backend));
      }
    }
  }

  const failed = checks.some((c) => c.status === 'fail');
  return {
    schemaVersion: DOCTOR_REPORT_VERSION,
    kind: 'gpu-transfer-perf doctor report',
    createdAt: new Date().toISOString(),
    settings: { backend: options.backend, quick: options.quick, expectGpu: options.expectGpu },
    profile,
    node: process.version,
    os: `${os.platform()} ${os.release()} ${os.arch()}`,
    host,
    checks,
    figures,
    envelope: envelopeInfo,
    durationSeconds: (performance.now() - started) / 1000,
    exitCode: failed ? EXIT.regression : EXIT.pass,
  };
}
