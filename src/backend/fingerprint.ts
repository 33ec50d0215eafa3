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

/** What identifies a hardware profile. */
export interface ProfileParts {
  readonly backend: BackendName;
  readonly adapter: AdapterDescription | AdapterInfoFields | null;
  readonly cpuModel: string;
  readonly arch: string;
  readonly isUsingGpuDevice: boolean | null;
}

/**
 * Stable id of the setup a run measured, used to name its baseline:
 * 'webgpu-lavapipe-x64', 'webgpu-nvidia-h200-x64', 'wasm-amd-epyc-x64', 'tensorflow-cuda-x64'.
 * The device doing the work names it: the adapter for webgpu, the CPU for wasm and cpu.
 */
export function profileId(parts: ProfileParts): string {
  const arch = slug(parts.arch);
  switch (parts.backend) {
    case 'webgpu':
      return `webgpu-${parts.adapter ? adapterSlug(parts.adapter) : 'unknown-adapter'}-${arch}`;
    case 'tensorflow':
      return `tensorflow-${parts.isUsingGpuDevice ? 'cuda' : `cpu-${cpuSlug(parts.cpuModel)}`}-${arch}`;
    case 'wasm':
    case 'cpu':
      return `${parts.backend}-${cpuSlug(parts.cpuModel)}-${arch}`;
  }
}
