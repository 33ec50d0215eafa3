import os from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { BackendUnavailableError } from '../backend/errors.js';
import { runningTensorflow } from '../backend/tensorflow.js';
import { tensorflowPackage } from '../backend/tensorflow-installed.js';
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
  checkOneTfjs,
  checkPackages,
  checkStagingPath,
  checkTensorflowBackend,
  checkTensorflowGpuRoute,
  checkWasmBackend,
  checkWebGpuAdapter,
  checkWebGpuBackend,
  type TensorflowState,
  type WebGpuFacts,
} from './checks.js';
import { cudaRequirementFor, cudaSonames, locateLibraries, readLdconfigCache } from './cuda.js';
import {
  type EnvelopeFind,
  envelopeCommand,
  envelopePathFor,
  findEnvelope,
  foreignEnvelopeCheck,
  formatFigure,
  judgeFigure,
  noEnvelopeCheck,
  readEnvelope,
  remakeAdvice,
} from './envelope.js';
import { DoctorFileError } from './files.js';
import { measureHostCopy } from './host-copy.js';
import { measureHostLoad } from './host-load.js';
import { DEFAULT_PLAN, measureFigures, planFor, QUICK_PLAN } from './measurements.js';
import { installedVersion } from './packages.js';
import { type Efficiency, judgeEfficiency, type UploadPath, uploadPlateau } from './physical/efficiency.js';
import { bottleneckReading, liveReferences } from './physical/references.js';
import { judgeMachine, readMachine, recordedAdapter } from './physical/machine.js';
import { couldNotJudge } from './physical/judge.js';
import { type AdapterIdentity, matchAdapter } from './physical/match.js';
import { LinkSampler } from './physical/sampler.js';
import { hopsToWatch, physicalSection, whyNoLink } from './physical/section.js';
import { LIVE_ROOT, resolveMachineRoot } from './physical/sysfs.js';
import { type Check, DOCTOR_REPORT_VERSION, type DoctorReport, type Envelope, type Figure, type PhysicalSection, type ProfileSummary } from './schema.js';
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
  /**
   * --sysfs-root: judge a copy of a machine's /sys (fixtures/sysfs/<name>/) instead of this
   * machine's: the physical verdicts only. Nothing is started or measured: this machine's device
   * is not the copy's, so a throughput measured here against the copy's link would mean nothing.
   */
  readonly sysfsRoot?: string | null;
  /** --browser NAME: recorded in the report's settings; the browser's page is run by the command (src/cli/doctor/measure.ts). */
  readonly browser?: string | null;
}

/** Work to do on the running backend once doctor's figures are measured, while the device is up (--browser: Node's same tfjs uploads as the page's). */
export type OnDevice = (context: BackendContext, maxBufferSize: number | null) => Promise<void>;

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
/** Running inside the run kit (its KIT.json, src/kit/build.ts): no npm scripts run there. */
const IN_KIT = existsSync(`${ROOT}KIT.json`);

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

/** What identifies the adapter in use, for matching it to a PCI function. */
function adapterIdentity(context: BackendContext, facts: WebGpuFacts | null): AdapterIdentity {
  if (facts) {
    return {
      backend: context.name,
      vendor: facts.vendor,
      name: facts.device || facts.description,
      isSoftware: facts.isSoftware || facts.isFallbackAdapter === true,
      pciBusId: null,
      cudaGpu: false,
    };
  }
  return { backend: context.name, vendor: null, name: null, isSoftware: false, pciBusId: null, cudaGpu: context.isUsingGpuDevice === true };
}

function uploadPathOf(context: BackendContext, facts: WebGpuFacts | null): UploadPath {
  if (facts) return facts.isSoftware || facts.isFallbackAdapter === true ? 'software-webgpu' : 'webgpu';
  if (context.name === 'tensorflow') return context.isUsingGpuDevice ? 'tensorflow-gpu' : 'tensorflow-cpu';
  return context.name === 'wasm' ? 'wasm' : 'cpu';
}

/**
 * `--sysfs-root DIR`: the physical verdicts of a copy of a machine's /sys, with the adapter
 * recorded beside it (machine.json). A bad DIR throws MachineRootError (exit 2).
 */
function judgeCopy(options: DoctorOptions, dir: string, sink: DoctorSink, started: number): DoctorReport {
  const root = resolveMachineRoot(dir);
  sink.note(
    `judging a copy of a machine's /sys (${dir}): physical verdicts only; nothing is started or measured here, this machine's device is not the copy's`,
  );
  const reading = readMachine(root);
  const { verdict, checks } = judgeMachine(reading, recordedAdapter(root.recorded));
  checks.push({
    id: 'physical.efficiency',
    status: 'info',
    reason: 'efficiency: not measured (a copy of a machine: run doctor on that machine to measure against its link)',
  });
  for (const check of checks) sink.check(check);
  return report(options, started, {
    profile: null,
    host: null,
    checks,
    figures: [],
    envelope: { path: null, found: false },
    physical: physicalSection(reading, verdict, null, null),
  });
}

/** The report around what a run found. */
function report(
  options: DoctorOptions,
  started: number,
  found: Pick<DoctorReport, 'profile' | 'host' | 'checks' | 'figures' | 'envelope'> & { physical: PhysicalSection },
): DoctorReport {
  const failed = found.checks.some((c) => c.status === 'fail');
  // A sysfs file doctor cannot parse leaves a device unknown: exit 2 (could not judge), never 0.
  const unjudged = couldNotJudge(found.checks);
  return {
    schemaVersion: DOCTOR_REPORT_VERSION,
    kind: 'gpu-transfer-perf doctor report',
    createdAt: new Date().toISOString(),
    settings: {
      backend: options.backend,
      quick: options.quick,
      expectGpu: options.expectGpu,
      sysfsRoot: options.sysfsRoot ?? null,
      browser: options.browser ?? null,
    },
    ...found,
    node: process.version,
    os: `${os.platform()} ${os.release()} ${os.arch()}`,
    browser: null,
    durationSeconds: (performance.now() - started) / 1000,
    exitCode: failed ? EXIT.regression : unjudged ? EXIT.badInput : EXIT.pass,
  };
}

/**
 * `npm run doctor`: checks the setup (Node, packages, every backend, the WebGPU adapter and its
 * limits, tfjs-node-gpu and the CUDA libraries), then measures transfer figures on the running
 * backend and judges each against the profile's envelope. Returns the whole report; its
 * exitCode is 1 when any check failed, else 2 when a sysfs file could not be parsed (judge.ts couldNotJudge), else 0.
 */
export async function runDoctorChecks(options: DoctorOptions, sink: DoctorSink, onDevice?: OnDevice): Promise<DoctorReport> {
  const started = performance.now();
  if (options.sysfsRoot) return judgeCopy(options, options.sysfsRoot, sink, started);
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
  add(checkOneTfjs(ROOT, process.cwd(), realpathSync));

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
  const tfRunning = running === 'tensorflow' ? runningTensorflow() : null;
  const tfState: TensorflowState = {
    package: tensorflowPackage(),
    running:
      tfRunning && context
        ? { tensorflow: tfRunning.tensorflow, packageVersion: tfRunning.packageVersion, isUsingGpuDevice: context.isUsingGpuDevice === true }
        : null,
  };
  add(checkTensorflowBackend(tfState, options.expectGpu && running === 'tensorflow'));
  const cuda = cudaRequirementFor(tfRunning?.tensorflow ?? null);
  const ld = await readLdconfigCache();
  const cudaLibraries = locateLibraries(cudaSonames(cuda), ld.output ?? '', options.ldLibraryPath ?? undefined);
  add(checkCudaLibraries(cudaLibraries, ld.error, cuda, tfState.package, options.expectGpu && running === 'tensorflow'));
  add(checkTensorflowGpuRoute(tfState, cudaLibraries, cuda, options.expectGpu && running === 'tensorflow'));
  if (facts) checkWebGpuAdapter(facts, options.expectGpu).forEach(add);
  if (running) add(checkExpectGpu(running, options.expectGpu));

  // This machine's PCI tree, read before measuring; its links are read again while uploads run.
  const machine = readMachine(LIVE_ROOT);
  const adapter = context ? adapterIdentity(context, facts) : null;
  const sampler = new LinkSampler(hopsToWatch(machine.devices, matchAdapter(adapter, machine.devices)));
  const command = (path: string) => envelopeCommand(path, options.backend === 'auto' ? null : options.backend);
  const remake = (path: string) => remakeAdvice(command(path), IN_KIT);

  let figures: Figure[] = [];
  let profile: ProfileSummary | null = null;
  let envelopeInfo: DoctorReport['envelope'] = { path: null, found: false };
  let envelope: Envelope | null = null;
  let found: EnvelopeFind | null = null;
  let hostCopy: Figure | null = null;
  if (context) {
    profile = summarize(context);
    const correct = await checkNormalizeCorrect();
    add(correct);
    if (correct.status !== 'fail') {
      // The envelope is read first: a broken file is a failed check, not a crash after measuring.
      // The file actually read: this id's own, or one named by the id of before the CPU was part of
      // it, made on this machine; one of this device made on another CPU is named after the figures, not read.
      found = findEnvelope(dirname(envelopePathFor(profile.id)), profile.id);
      const path = found.path;
      if (found.note) sink.note(found.note);
      try {
        envelope = await readEnvelope(path);
      } catch (error) {
        if (!(error instanceof DoctorFileError)) throw error;
        add({ id: 'envelope', status: 'fail', reason: `${error.message}; remake it: ${remake(envelopePathFor(profile.id))}` });
      }
      envelopeInfo = { path, found: envelope !== null };
      sink.note(
        `measuring on ${profile.id}${options.quick ? ' (--quick)' : ''}: host->device curve${sampler.watching ? ' (the PCIe link read again meanwhile)' : ''}, readback, device copy, normalize kernel, speedup pairs, host memory copy (synced, medians of repeats; GB/s = 1e9 B/s)`,
      );
      const plan = options.quick ? QUICK_PLAN : DEFAULT_PLAN;
      const maxBufferSize = facts?.maxBufferSize ?? null;
      figures = await measureFigures(context, plan, maxBufferSize, undefined, () => sampler.start());
      // The host copy at the largest upload's size: the efficiency sets one against the other.
      hostCopy = await measureHostCopy(Math.max(...planFor(context, plan, maxBufferSize).uploadSizes), options.quick ? 5 : 7);
      figures.push(hostCopy);
      if (onDevice) await onDevice(context, maxBufferSize);
    }
  }

  // The physical verdicts, with the links as read under load where uploads ran.
  const underLoad = sampler.readings();
  const physical = judgeMachine(machine, adapter, underLoad);
  let efficiency: Efficiency | null = null;
  const path = context && figures.length > 0 ? uploadPathOf(context, facts) : null;
  if (path !== null) {
    const judged = judgeEfficiency({
      path,
      plateau: uploadPlateau(figures),
      hostCopy,
      linkGBps: physical.verdict.linkLimitGBps,
      whyNoLink: whyNoLink(physical.verdict),
    });
    efficiency = judged.efficiency;
    if (judged.figure) figures.push(judged.figure);
    physical.checks.push(judged.check);
  }
  const section = physicalSection(machine, physical.verdict, underLoad, efficiency);
  if (path !== null) {
    // Far below min(link, host copy) on a GPU: the API's staging path binds (issue 35).
    const link = { gbps: physical.verdict.linkLimitGBps, reading: bottleneckReading(section) };
    const refs = liveReferences(figures, link, path === 'tensorflow-gpu' ? 'tensorflow' : 'webgpu', path === 'webgpu' || path === 'tensorflow-gpu');
    const staging = checkStagingPath({ ...refs, uploadLabel: refs.uploadLabel ?? '' });
    if (staging) physical.checks.push(staging);
  }

  if (profile && figures.length > 0) {
    if (envelope) {
      const isSoftware = profile.isSoftware === true || profile.backend === 'wasm' || profile.backend === 'cpu';
      add(checkHostLoad(host));
      for (const figure of figures) add(judgeFigure(figure, envelope, { isSoftware, busy: host.busy, remake: remake(envelopeInfo.path!) }));
    } else {
      for (const figure of figures) add({ id: `figure.${figure.id}`, status: 'info', reason: `${figure.label}: ${formatFigure(figure)}` });
      const path = envelopeInfo.path!;
      const foreign = found?.foreign;
      if (!checks.some((c) => c.id === 'envelope'))
        add(foreign ? foreignEnvelopeCheck(foreign, profile, path, command(path), IN_KIT) : noEnvelopeCheck(profile.id, path, command(path), IN_KIT));
    }
  }
  physical.checks.forEach(add);

  return report(options, started, {
    profile,
    host,
    checks,
    figures,
    envelope: envelopeInfo,
    physical: section,
  });
}
