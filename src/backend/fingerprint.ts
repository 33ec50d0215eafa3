import type { AdapterDescription, BackendName } from './types.js';

/** The adapter fields a driver reports (GPUAdapterInfo, read one getter at a time). */
export interface AdapterInfoFields {
  readonly vendor: string;
  readonly architecture: string;
  readonly device: string;
  readonly description: string;
}

/** Lower-case words joined by '-', e.g. 'AMD EPYC 7B13' -> 'amd-epyc-7b13'. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// Known CPU rasterizers exposed as Vulkan/WebGPU adapters.
const SOFTWARE_ADAPTERS: ReadonlyArray<{ pattern: RegExp; name: string }> = [
  { pattern: /llvmpipe|lavapipe/i, name: 'lavapipe' },
  { pattern: /swiftshader/i, name: 'swiftshader' },
  { pattern: /microsoft basic render|warp/i, name: 'warp' },
];

/** Name of the software rasterizer behind an adapter, or null for real hardware. */
export function softwareAdapterName(info: AdapterInfoFields): string | null {
  const text = `${info.vendor} ${info.architecture} ${info.device} ${info.description}`;
  const known = SOFTWARE_ADAPTERS.find((s) => s.pattern.test(text));
  if (known) return known.name;
  // Dawn reports architecture 'software' for CPU adapters it cannot name.
  return info.architecture === 'software' ? 'software' : null;
}

/**
 * An adapter's name in a sentence: its description, else (Chromium leaves SwiftShader's empty) the
 * software rasterizer it is, else its device, else 'unnamed'.
 */
export function adapterName(info: AdapterInfoFields): string {
  return info.description || softwareAdapterName(info) || info.device || 'unnamed';
}

/** A short hardware name for an adapter: 'lavapipe', 'nvidia-h200', 'amd-gfx1100'. */
export function adapterSlug(info: AdapterInfoFields): string {
  const software = softwareAdapterName(info);
  if (software) return software;
  const model = info.device || info.architecture || info.description;
  const vendor = slug(info.vendor);
  const modelSlug = slug(model);
  if (!vendor) return modelSlug || 'unknown-gpu';
  return modelSlug.startsWith(vendor) ? modelSlug : `${vendor}-${modelSlug}`;
}

/** Shortens a CPU model to its first three words: 'AMD EPYC 7B13 64-Core' -> 'amd-epyc-7b13'. */
export function cpuSlug(model: string): string {
  const words = slug(model.replace(/\(r\)|\(tm\)|cpu|processor|@.*$/gi, ' '))
    .split('-')
    .filter(Boolean);
  return words.slice(0, 3).join('-') || 'unknown-cpu';
}

/**
 * The CPU part of an id where the CPU does the device's work: model and the cores the process
 * may use, 'AMD EPYC', 2 -> 'amd-epyc-2c'.
 */
export function cpuPart(model: string, cores: number): string {
  return `${cpuSlug(model)}-${Math.max(1, Math.round(cores))}c`;
}

/** What identifies a hardware profile. */
export interface ProfileParts {
  readonly backend: BackendName;
  readonly adapter: AdapterDescription | AdapterInfoFields | null;
  readonly cpuModel: string;
  /** The cores the process may use (os.availableParallelism()), as the record's cpu.cores. */
  readonly cpuCores: number;
  readonly arch: string;
  readonly isUsingGpuDevice: boolean | null;
  /** The browser the backend ran in (gtp perf --browser); absent or null for Node. */
  readonly browser?: BrowserOfProfile | null;
}

/** A browser as a profile names it: 'chromium', major version 156. */
export interface BrowserOfProfile {
  readonly name: string;
  readonly major: number;
}

/**
 * Stable id of the setup a run measured, used to name its baseline, calibration, envelope and
 * history folder: 'webgpu-lavapipe-amd-epyc-2c-x64', 'webgpu-nvidia-h200-x64', 'wasm-amd-epyc-x64',
 * 'tensorflow-cuda-x64', 'tensorflow-cpu-amd-epyc-2c-x64'. The device doing the work names it:
 * the adapter for a GPU; the CPU where the CPU does the device's work. Where that work is spread
 * over the cores (a software adapter such as lavapipe, TensorFlow's CPU kernels) the core count is
 * part of it: a 2-core runner's baseline must not judge a 4-core one. wasm (no threads in Node)
 * and cpu (plain JavaScript) run on the calling thread only, so their ids carry the model alone.
 */
export function profileId(parts: ProfileParts): string {
  const arch = slug(parts.arch);
  const cpu = cpuPart(parts.cpuModel, parts.cpuCores);
  // In a browser the browser is part of the device: 'webgpu-chromium-156-swiftshader-amd-epyc-2c-x64',
  // 'webgl-chromium-156-nvidia-...-x64'. Its own words, so no Node id's pattern (legacyIdOf) matches it.
  if (parts.browser) {
    const software = parts.adapter ? softwareAdapterName(parts.adapter) : null;
    const adapter = software ? `${software}-${cpu}` : parts.adapter ? adapterSlug(parts.adapter) : 'unknown-adapter';
    return `${parts.backend}-${slug(parts.browser.name)}-${parts.browser.major}-${adapter}-${arch}`;
  }
  switch (parts.backend) {
    case 'webgpu': {
      if (!parts.adapter) return `webgpu-unknown-adapter-${arch}`;
      const software = softwareAdapterName(parts.adapter);
      return software ? `webgpu-${software}-${cpu}-${arch}` : `webgpu-${adapterSlug(parts.adapter)}-${arch}`;
    }
    case 'tensorflow':
      return `tensorflow-${parts.isUsingGpuDevice ? 'cuda' : `cpu-${cpu}`}-${arch}`;
    case 'wasm':
    case 'cpu':
      return `${parts.backend}-${cpuSlug(parts.cpuModel)}-${arch}`;
    case 'webgl':
      // webgl starts only in a browser (parts.browser set above).
      return `webgl-no-browser-${arch}`;
  }
}

/**
 * The id the same setup had before the CPU's core count (and, for software adapters, its model)
 * became part of it: 'webgpu-lavapipe-x64', 'tensorflow-cpu-amd-epyc-x64'. Files named by it
 * (baselines committed before) are read through results/profile-files.ts.
 */
export function legacyProfileId(parts: ProfileParts): string {
  const id = profileId(parts);
  return legacyIdOf(id)?.legacyId ?? id;
}

// profileId's shapes that carry a CPU part ('<cpu slug>-<n>c') before the architecture.
const SOFTWARE_NAMES = [...new Set(SOFTWARE_ADAPTERS.map((s) => s.name)), 'software'].join('|');
const WITH_CPU: readonly RegExp[] = [
  new RegExp(String.raw`^(?<before>webgpu-(?:${SOFTWARE_NAMES})-)(?<cpu>(?:[a-z0-9]+-)+?\d+c)-(?<arch>[a-z0-9_]+)$`),
  /^(?<before>tensorflow-cpu-)(?<cpu>(?<model>(?:[a-z0-9]+-)+?)\d+c)-(?<arch>[a-z0-9_]+)$/,
];

// A browser's software adapter ('webgpu-chromium-156-swiftshader-amd-epyc-2c-x64', webgl too):
// the browser and its major version belong to the device, the CPU model is the host (issue 43).
const IN_BROWSER_WITH_CPU = new RegExp(
  String.raw`^(?<before>(?:webgpu|webgl)-[a-z]+-\d+-(?:${SOFTWARE_NAMES})-)(?<cpu>(?:[a-z0-9]+-)+?\d+c)-(?<arch>[a-z0-9_]+)$`,
);

/**
 * For an id whose CPU part is new ('webgpu-lavapipe-amd-epyc-2c-x64'), the id the same kind of
 * setup had before (legacyId 'webgpu-lavapipe-x64') and the CPU part ('amd-epyc-2c') that a file
 * named by the legacy id must record to be this setup's; null for an id that did not change.
 */
export function legacyIdOf(id: string): { readonly legacyId: string; readonly cpu: string } | null {
  for (const pattern of WITH_CPU) {
    const g = id.match(pattern)?.groups;
    if (g) return { legacyId: `${g.before}${g.model ?? ''}${g.arch}`, cpu: g.cpu! };
  }
  return null;
}

/**
 * The device part of an id whose host CPU is not part of the device, and that host: for a
 * software adapter ('webgpu-lavapipe-amd-epyc-2c-x64') the adapter, core count and architecture
 * (`device` 'webgpu-lavapipe-*-2c-x64') and the CPU model's slug (`host` 'amd-epyc'). The adapter
 * renders with the host's cores, so the core count stays with the device (a 2-core runner's
 * baseline does not judge a 4-core one); the model is what hosted runners change under one label.
 * A hardware GPU's id carries no CPU at all (any host finds its baseline by the id itself), and
 * where the CPU is the device (wasm, cpu, TensorFlow's CPU kernels) another CPU is another
 * device: null for those.
 */
export function deviceAndHostOf(id: string): { readonly device: string; readonly host: string } | null {
  const g = (id.match(WITH_CPU[0]!) ?? id.match(IN_BROWSER_WITH_CPU))?.groups;
  const cores = g?.cpu?.match(/^(?<model>.+)-(?<cores>\d+c)$/)?.groups;
  if (!g || !cores) return null;
  return { device: `${g.before}*-${cores.cores}-${g.arch}`, host: cores.model! };
}

/** Whether two ids are the same device on hosts of another CPU model (deviceAndHostOf): a baseline of one may judge the other with a host allowance. */
export function sameDeviceOtherHost(a: string, b: string): boolean {
  const [x, y] = [deviceAndHostOf(a), deviceAndHostOf(b)];
  return x !== null && y !== null && x.device === y.device && x.host !== y.host;
}
