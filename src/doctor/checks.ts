import { tensorflowSetup } from '../base/commands.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { adapterName } from '../backend/fingerprint.js';
import type { CudaRequirement, LibraryLocation } from './cuda.js';
import type { HostLoad } from './host-load.js';
import { RUNTIME_TOOLS, resolvePackageDir } from './packages.js';
import type { Check } from './schema.js';
import { bindingOf, STAGING_BOUND_FRACTION, type UploadReferences } from '../results/upload-references.js';

/** The WebGPU adapter and device as Dawn reports them (GPUAdapterInfo getters, device limits). */
export interface WebGpuFacts {
  readonly vendor: string;
  readonly architecture: string;
  readonly device: string;
  /** Dawn puts the driver's own name and version here, e.g. 'llvmpipe: Mesa 25.0.7 (LLVM 15.0.6)'. */
  readonly description: string;
  readonly isSoftware: boolean;
  /** GPUAdapterInfo.isFallbackAdapter, where Dawn reports it. */
  readonly isFallbackAdapter: boolean | null;
  readonly features: readonly string[];
  readonly maxBufferSize: number;
  readonly maxStorageBufferBindingSize: number;
}

const MiB = 1024 * 1024;
// WebGPU's default limits (W3C WebGPU, "Limits"): what every adapter must offer at least.
const DEFAULT_MAX_BUFFER_SIZE = 256 * MiB;
const DEFAULT_MAX_STORAGE_BINDING = 128 * MiB;

/** Node must be >= 20 (package.json engines; vitest 4 and the `webgpu` addon need it). */
export function checkNode(version: string): Check {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  return major >= 20
    ? { id: 'node', status: 'ok', reason: `Node ${version} (needs >= 20)` }
    : { id: 'node', status: 'fail', reason: `Node ${version} is too old: needs >= 20 (package.json engines)` };
}

/** A package.json's name -> pinned version maps. */
interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  /** tfjs and vitest are the user's (one copy each); vega, mnist and tfjs-node-gpu optional. */
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
}

/** What each optional peer adds, for the line that says it is not installed. */
const OPTIONAL_USE: Record<string, string> = {
  vega: 'charts',
  'vega-lite': 'charts',
  mnist: 'the embedded MNIST data (or --mnist-dir)',
  '@tensorflow/tfjs-node-gpu': 'the CUDA backend',
};

/**
 * Every runtime package is installed, at the version package.json pins: dependencies and the
 * required peers (tfjs, vitest); optional peers missing are named with what they add, not a
 * failure. `fromSources`: the harness runs its src/*.ts (this repository, the kit), which needs
 * tsx; the built package (dist/*.js, installed in a user's project) does not, and npm leaves dev
 * dependencies out there.
 */
export function checkPackages(manifest: Manifest, versionOf: (name: string) => string | null, fromSources = true): Check {
  const optional = (name: string) => manifest.peerDependenciesMeta?.[name]?.optional === true;
  const peers = Object.entries(manifest.peerDependencies ?? {});
  const wanted: Record<string, string> = { ...manifest.dependencies, ...Object.fromEntries(peers.filter(([name]) => !optional(name))) };
  for (const tool of RUNTIME_TOOLS) {
    if (tool === 'tsx' && !fromSources) continue;
    const pin = manifest.devDependencies?.[tool] ?? manifest.peerDependencies?.[tool];
    if (pin) wanted[tool] = pin;
  }
  const missing: string[] = [];
  const differ: string[] = [];
  for (const [name, pin] of Object.entries(wanted)) {
    const got = versionOf(name);
    if (got === null) missing.push(name);
    else if (/^\d+\.\d+\.\d+$/.test(pin) && got !== pin) differ.push(`${name} ${got} (pinned ${pin})`);
  }
  const absentOptional = peers
    .filter(([name]) => optional(name) && versionOf(name) === null && name in OPTIONAL_USE)
    .map(([name, pin]) => `${name}@${pin} (${OPTIONAL_USE[name]})`);
  const optionalNote = absentOptional.length > 0 ? `; optional, not installed: ${absentOptional.join(', ')}` : '';
  const count = Object.keys(wanted).length;
  if (missing.length > 0) {
    return {
      id: 'packages',
      status: 'fail',
      reason: `${missing.length} of ${count} runtime packages missing: ${missing.join(', ')}; run npm ci (or unpack the kit again)`,
    };
  }
  if (differ.length > 0) {
    return {
      id: 'packages',
      status: 'warn',
      reason: `installed versions differ from package.json: ${differ.join(', ')}; npm ci installs the pinned ones${optionalNote}`,
    };
  }
  const key = ['@tensorflow/tfjs', 'webgpu', 'vitest'].map((n) => `${n.replace('@tensorflow/', '')} ${versionOf(n)}`).join(', ');
  return { id: 'packages', status: 'ok', reason: `${count} runtime packages present at their pinned versions (${key}, ...)${optionalNote}` };
}

/**
 * One copy of tfjs: the harness and the project must load the same @tensorflow/tfjs-core, or the
 * harness's kernels, backends and counters register with an engine the user's tensors never see.
 * `harnessRoot`: the harness's package folder; `projectRoot`: where the user's code resolves it.
 */
export function checkOneTfjs(harnessRoot: string, projectRoot: string, realDir: (dir: string) => string = (d) => d): Check {
  const name = '@tensorflow/tfjs-core';
  const ours = resolvePackageDir(name, harnessRoot);
  const theirs = resolvePackageDir(name, projectRoot);
  if (ours === null)
    return {
      id: 'packages.tfjs-copies',
      status: 'fail',
      reason: `${name} not found from ${harnessRoot}; install @tensorflow/tfjs (a peer of gpu-transfer-perf)`,
    };
  if (theirs === null || realDir(ours) === realDir(theirs)) {
    return { id: 'packages.tfjs-copies', status: 'ok', reason: `one copy of ${name} (${ours})` };
  }
  return {
    id: 'packages.tfjs-copies',
    status: 'fail',
    reason: `two copies of ${name}: ${theirs} (your project's) and ${ours} (the harness's); tensors of one engine are not the other's, so measurements would miss your tensors. Install the tfjs version the harness pins (npm ls @tensorflow/tfjs-core shows both), then npm dedupe`,
  };
}

// tfjs-backend-wasm's own SIMD probe (from GoogleChromeLabs/wasm-feature-detect), verbatim.
const WASM_SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 9, 1, 7, 0, 65, 0, 253, 15, 26, 11]);

/** The wasm backend loads its .wasm binary from the package folder (no network); SIMD picks the faster one. */
export function checkWasmBackend(root: string, started: boolean): Check {
  // Found as Node finds the package: in a user's project npm hoists it above the harness's folder.
  const dir = resolvePackageDir('@tensorflow/tfjs-backend-wasm', root);
  const simd = WebAssembly.validate(WASM_SIMD_PROBE);
  const binary = simd ? 'tfjs-backend-wasm-simd.wasm' : 'tfjs-backend-wasm.wasm';
  if (dir === null || !existsSync(join(dir, 'dist', binary))) {
    return { id: 'backend.wasm', status: 'fail', reason: `wasm: ${binary} missing from @tensorflow/tfjs-backend-wasm/dist; run npm ci` };
  }
  return {
    id: 'backend.wasm',
    status: 'ok',
    reason: `wasm: available (${binary}, SIMD ${simd ? 'on' : 'off'}, threads off in Node)${started ? '; running' : ''}`,
  };
}

/** tfjs's plain JavaScript backend needs nothing but tfjs. */
export function checkCpuBackend(started: boolean): Check {
  return { id: 'backend.cpu', status: 'ok', reason: `cpu: available (plain JavaScript, no device)${started ? '; running' : ''}` };
}

/** Whether Dawn found a WebGPU adapter, from starting it or probing it. */
export function checkWebGpuBackend(facts: WebGpuFacts | null, whyNot: string | null, started: boolean): Check {
  if (!facts) return { id: 'backend.webgpu', status: 'warn', reason: `webgpu: unavailable: ${whyNot ?? 'no adapter'}` };
  return { id: 'backend.webgpu', status: 'ok', reason: `webgpu: available (Dawn found "${facts.description || facts.device}")${started ? '; running' : ''}` };
}

/** tfjs-node's TensorFlow binding as doctor finds it: which package, and what it reported once started. */
export interface TensorflowState {
  /** @tensorflow/tfjs-node-gpu or @tensorflow/tfjs-node, installed with its addon; null: neither. */
  readonly package: string | null;
  /** Once started: TensorFlow's version from the C library (TF_Version), the package's version, isUsingGpuDevice. */
  readonly running: { readonly tensorflow: string; readonly packageVersion: string; readonly isUsingGpuDevice: boolean } | null;
}

const GPU_PACKAGE = '@tensorflow/tfjs-node-gpu';
const CPU_PACKAGE = '@tensorflow/tfjs-node';
const SETUP = tensorflowSetup();

/**
 * Where the tensorflow backend stands: neither package installed (optional), installed but not
 * started, running on a CUDA GPU, the CPU build on the CPU (@tensorflow/tfjs-node: what the set-up
 * installs, correct as it is), or tfjs-node-gpu on the CPU (a GPU set-up that found no GPU).
 */
export function checkTensorflowBackend(tf: TensorflowState, expectGpu: boolean): Check {
  const id = 'backend.tensorflow';
  if (tf.package === null) {
    return {
      id,
      status: 'info',
      reason: `tensorflow: neither ${CPU_PACKAGE} nor ${GPU_PACKAGE} is installed (optional); ${SETUP} installs ${CPU_PACKAGE} 4.22.0 on TensorFlow 2.21's C library (CPU build)`,
    };
  }
  if (tf.running === null) {
    return {
      id,
      status: 'info',
      reason: `tensorflow: ${tf.package} installed, not started here; \`npm run doctor -- --backend tensorflow\` runs it and reads TensorFlow's version and whether it uses a GPU`,
    };
  }
  const what = `TensorFlow ${tf.running.tensorflow} (TF_Version) through ${tf.package} ${tf.running.packageVersion}`;
  if (tf.running.isUsingGpuDevice) return { id, status: 'ok', reason: `tensorflow: running ${what}; isUsingGpuDevice true (TensorFlow found a CUDA GPU)` };
  if (tf.package === CPU_PACKAGE) {
    return {
      id,
      status: expectGpu ? 'fail' : 'ok',
      reason:
        `tensorflow: running ${what}, the CPU build: isUsingGpuDevice false, as it must be (its tensors live in host memory)` +
        (expectGpu ? '; --expect-gpu: a GPU needs the tfjs-node-gpu route (tensorflow.gpu-route)' : ''),
    };
  }
  return {
    id,
    status: expectGpu ? 'fail' : 'warn',
    reason: `tensorflow: running ${what} on the CPU (isUsingGpuDevice false): TensorFlow found no usable CUDA GPU; see tensorflow.cuda-libraries and tensorflow.gpu-route`,
  };
}

/**
 * The CUDA libraries TensorFlow's CUDA build loads (`requirement`: those of the TensorFlow version
 * in use) on the loader path. Absent is right for the CPU build; it matters for tfjs-node-gpu.
 */
export function checkCudaLibraries(
  locations: readonly LibraryLocation[],
  ldconfigError: string | null,
  requirement: CudaRequirement,
  tfPackage: string | null,
  expectGpu: boolean,
): Check {
  const id = 'tensorflow.cuda-libraries';
  const found = locations.filter((l) => l.path !== null);
  const missing = locations.filter((l) => l.path === null).map((l) => l.name);
  const where = found.map((l) => `${l.name} at ${l.path} (${l.via})`).join(', ');
  const searched = `ldconfig -p${ldconfigError ? ` (${ldconfigError})` : ''} and LD_LIBRARY_PATH`;
  const which = `CUDA ${requirement.cuda} / cuDNN ${requirement.cudnn} (TensorFlow ${requirement.tensorflow}'s CUDA build)`;
  if (missing.length === 0) return { id, status: 'ok', reason: `${which} libraries on the loader path: ${where}` };
  const text = `${which}: ${missing.join(', ')} not found (searched ${searched})${found.length ? `; found ${where}` : ''}`;
  if (tfPackage === null) return { id, status: 'info', reason: `${text}: needed only by ${GPU_PACKAGE}, which is not installed` };
  if (tfPackage === CPU_PACKAGE) {
    return {
      id,
      status: expectGpu ? 'fail' : 'info',
      reason: `${text}: not used by ${CPU_PACKAGE}, the CPU build; needed only on the tfjs-node-gpu route (tensorflow.gpu-route)`,
    };
  }
  const wheels = [...new Set(requirement.libraries.filter((l) => missing.includes(l.soname) && l.pipPackage).map((l) => l.pipPackage!))];
  return {
    id,
    status: expectGpu ? 'fail' : 'warn',
    reason:
      `${text}: ${GPU_PACKAGE} will run on the CPU; ` +
      (wheels.length
        ? `pip install ${wheels.join(' ')} and add their site-packages/nvidia/*/lib folders to LD_LIBRARY_PATH`
        : `install CUDA ${requirement.cuda} and cuDNN ${requirement.cudnn} and add their lib64 folders to LD_LIBRARY_PATH (or ldconfig)`),
  };
}

/**
 * What a GPU user still lacks for the tensorflow backend on CUDA: @tensorflow/tfjs-node-gpu
 * (installed with --ignore-scripts: its install script wipes deps/ and downloads libtensorflow
 * 2.9.1), the C library of the `tensorflow` wheel (TensorFlow built with CUDA; the set-up links
 * tensorflow-cpu's) in its deps/lib, and the nvidia-*-cu12 packages of its `and-cuda` extra whose
 * libraries are not on the loader path. The route itself is UNVERIFIED: no CUDA build of
 * TensorFlow can be fetched, built or run on the machines this project is tested on.
 */
export function checkTensorflowGpuRoute(tf: TensorflowState, locations: readonly LibraryLocation[], requirement: CudaRequirement, expectGpu: boolean): Check {
  const id = 'tensorflow.gpu-route';
  const lacking: string[] = [];
  if (tf.package !== GPU_PACKAGE) {
    lacking.push(`${GPU_PACKAGE}@4.22.0 (npm install --ignore-scripts, then its deps/lib as ${SETUP} lays out tfjs-node's)`);
  }
  if (tf.package !== GPU_PACKAGE || tf.running?.isUsingGpuDevice === false) {
    lacking.push(
      tf.package === GPU_PACKAGE
        ? `a CUDA build of TensorFlow under it (isUsingGpuDevice false: its deps/lib may hold tensorflow-cpu's C library, or the CUDA libraries below are missing)`
        : `the \`tensorflow\` wheel's C library (TensorFlow ${requirement.tensorflow} built with CUDA; ${SETUP} links tensorflow-cpu's)`,
    );
  }
  const missing = new Set(locations.filter((l) => l.path === null).map((l) => l.name));
  const wheels = [...new Set(requirement.libraries.filter((l) => missing.has(l.soname)).map((l) => l.pipPackage ?? l.soname))];
  if (wheels.length) lacking.push(`${wheels.join(', ')} (the CUDA ${requirement.cuda} libraries of its and-cuda extra)`);
  const route = `tensorflow on a GPU (tfjs-node-gpu on TensorFlow ${requirement.tensorflow}'s CUDA build; UNVERIFIED: never built or run by this project)`;
  if (lacking.length === 0) {
    return {
      id,
      status: 'ok',
      reason: `${route}: every piece is there${tf.running?.isUsingGpuDevice ? ' and TensorFlow uses the GPU' : '; start it with --backend tensorflow to see whether TensorFlow uses the GPU'}`,
    };
  }
  return { id, status: expectGpu ? 'fail' : 'info', reason: `${route} lacks: ${lacking.join('; ')}` };
}

const SOFTWARE_HINT = 'on a GPU machine install the vendor Vulkan driver (check with `vulkaninfo --summary`) and run doctor again';

/** Where an adapter was found: Node's Dawn, or a browser's page (`--browser`): its checks' id prefix, who reports it, what to do about a software one. */
export interface AdapterWhere {
  /** Prefix of the checks' ids ('' in Node, 'browser.' in the page). */
  readonly idPrefix: string;
  /** Who reports the adapter: 'Dawn', 'Chromium'. */
  readonly reportedBy: string;
  readonly softwareHint: string;
}

/** Node's own adapter: Dawn (the `webgpu` package). */
export const NODE_ADAPTER: AdapterWhere = { idPrefix: '', reportedBy: 'Dawn', softwareHint: SOFTWARE_HINT };

/** The adapter itself, software or not, its features and limits that matter to the harness. */
export function checkWebGpuAdapter(facts: WebGpuFacts, expectGpu: boolean, where: AdapterWhere = NODE_ADAPTER): Check[] {
  const id = (name: string) => `${where.idPrefix}webgpu.${name}`;
  const name = [facts.vendor, facts.architecture, facts.device].filter(Boolean).join(' / ');
  // Chromium leaves SwiftShader's description empty: named by what it is, as perf's note names it.
  const driver = facts.description ? `"${facts.description}"` : `none (empty; ${adapterName(facts)})`;
  const checks: Check[] = [{ id: id('adapter'), status: 'info', reason: `adapter: ${name}; driver (as ${where.reportedBy} reports it): ${driver}` }];
  if (facts.isSoftware || facts.isFallbackAdapter) {
    checks.push({
      id: id('software'),
      status: expectGpu ? 'fail' : 'warn',
      reason: `SOFTWARE adapter${facts.isFallbackAdapter ? ` (${where.reportedBy}: isFallbackAdapter)` : ''}: a CPU rasterizer; its figures describe the CPU, not a GPU${expectGpu ? ' (--expect-gpu)' : ''}; ${where.softwareHint}`,
    });
  } else {
    checks.push({ id: id('software'), status: 'ok', reason: 'hardware adapter: the device is a GPU, not a CPU rasterizer' });
  }
  const has = (f: string) => facts.features.includes(f);
  checks.push(
    has('timestamp-query')
      ? { id: id('timestamp-query'), status: 'ok', reason: 'timestamp-query: offered; kernel profiles get device times' }
      : {
          id: id('timestamp-query'),
          status: 'warn',
          reason: 'timestamp-query: missing; kernel profiles fall back to host times (a newer driver may offer it)',
        },
    {
      id: id('shader-f16'),
      status: 'info',
      reason: `shader-f16: ${has('shader-f16') ? 'offered' : 'not offered'} by the adapter; tfjs 4.22 neither enables nor uses it (float16 payloads are decoded with unpack2x16float)`,
    },
  );
  const mib = (n: number) => `${(n / MiB).toLocaleString('en-US', { maximumFractionDigits: 0 })} MiB`;
  const small = facts.maxBufferSize < DEFAULT_MAX_BUFFER_SIZE || facts.maxStorageBufferBindingSize < DEFAULT_MAX_STORAGE_BINDING;
  checks.push({
    id: id('limits'),
    status: small ? 'warn' : 'ok',
    reason: `maxBufferSize ${mib(facts.maxBufferSize)}, maxStorageBufferBindingSize ${mib(facts.maxStorageBufferBindingSize)}${small ? ': below the WebGPU defaults (256 / 128 MiB); large batches may not fit' : ' (WebGPU defaults: 256 / 128 MiB)'}`,
  });
  return checks;
}

/** --expect-gpu on a backend that has no GPU at all. */
export function checkExpectGpu(backend: string, expectGpu: boolean): Check | null {
  if (!expectGpu || backend === 'webgpu' || backend === 'tensorflow') return null;
  return {
    id: 'expect-gpu',
    status: 'fail',
    reason: `--expect-gpu: the ${backend} backend runs on the CPU; no GPU is in use (is a Vulkan driver or tfjs-node-gpu installed?)`,
  };
}

/**
 * Host load when doctor starts: while other processes hold a good share of the CPUs, every
 * timing is shared with them, so a low figure says little about the setup.
 */
export function checkHostLoad(host: HostLoad): Check {
  const text = `other processes used ${Math.round(host.otherCpu * 100)}% of ${host.cores} cores in the second before measuring (load average ${host.load1.toFixed(1)})`;
  return host.busy
    ? { id: 'host.load', status: 'warn', reason: `${text}: busy; figures below their range are warnings, not failures; judge them on an idle machine` }
    : { id: 'host.load', status: 'ok', reason: `${text}: quiet enough to judge the figures` };
}

/** What the staging-path check sets against each other: the upload plateau and the machine's two bounds. */
export interface StagingPathInput {
  /** A hardware adapter: a software one's upload is a CPU copy, judged by the efficiency line against the host copy. */
  readonly hardware: boolean;
  /** The API's upload rate (doctor: the upload curve's plateau) and the machine's bounds, as references. */
  readonly references: UploadReferences;
  /** The upload figure's label ('host->device 256 MiB'). */
  readonly uploadLabel: string;
  /** The backend whose upload path it is: the cause is named for it. */
  readonly backend: string;
}

/** Each hardware backend's upload path, as the cause names it. */
const STAGING_CAUSE: Record<string, string> = {
  webgpu: "WebGPU's writeBuffer copies into Dawn's staging memory, then a DMA: google/dawn DynamicUploader",
  tensorflow: 'tfjs-node-gpu hands TensorFlow pageable JavaScript memory, which CUDA copies through its own staging',
};

/** Where the docs list what else moves data on the same hardware (docs/figures.md). */
const OTHER_PATHS_DOC = 'docs/figures.md, "What else moves data on the same hardware"';

/**
 * A hardware adapter whose uploads reach under STAGING_BOUND_FRACTION (0.1, derived in
 * results/upload-references.ts) of min(PCIe link, host memory copy): the API's staging path
 * binds, not the link, the host or the pipeline. A warning, not a failure: nothing on the
 * machine is broken, but "at the device's limit" means at the API's, far from the machine's
 * (issue 35). Null: a software adapter, or no upload figure or machine bound to judge.
 */
export function checkStagingPath({ hardware, references, uploadLabel, backend }: StagingPathInput): Check | null {
  const binding = bindingOf(references);
  const api = references.api;
  if (!hardware || !binding || !api) return null;
  const gb = (v: number) => `${v.toPrecision(3)} GB/s`;
  const of = [references.link, references.hostCopy]
    .flatMap((r) => (r ? [`${(api.gbps / r.gbps).toPrecision(2)} of ${r.name} (${gb(r.gbps)})`] : []))
    .join(' and ');
  const text = `host->device ${gb(api.gbps)} (${uploadLabel}) is ${of}`;
  if (binding.binds !== 'api-staging') {
    return {
      id: 'upload.staging-path',
      status: 'ok',
      reason: `${text}: at least ${STAGING_BOUND_FRACTION} of ${binding.machine.name}, the lower machine bound, which binds`,
    };
  }
  return {
    id: 'upload.staging-path',
    status: 'warn',
    reason: `${text}: under ${STAGING_BOUND_FRACTION} of ${binding.machine.name}, the lower machine bound. Cause: the API's staging path (${STAGING_CAUSE[backend] ?? `${backend}'s upload path`}), not the link, the host or the pipeline; "at the device's limit" in the report means at this API's rate. Other software moves far more over the same hardware (H200, 2026-12-04: PyTorch 17.7 GB/s from pageable memory, 50.6 GB/s pinned): ${OTHER_PATHS_DOC}`,
  };
}
