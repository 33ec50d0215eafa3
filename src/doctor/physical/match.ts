import type { PciDevice } from './sysfs.js';

/**
 * Which PCI device the running backend computes on. WebGPU: Dawn's GPUAdapterInfo.vendor is the
 * vendor's name from google/dawn src/dawn/gpu_info.json, lower-cased with spaces as hyphens
 * ('nvidia', 'amd', 'intel'; 'mesa' for lavapipe); that file maps each name to its PCI vendor id.
 * Dawn's GPUAdapterInfo carries no PCI device id or bus address, and sysfs no model name, so
 * two functions of the adapter's vendor cannot be told apart: 'ambiguous'. tfjs-node-gpu:
 * libtensorflow logs the PCI bus id ('pci bus id: 0000:18:00.0') when it creates the device, but
 * the binding does not hand it to JavaScript; given one (recorded with a copy), it decides.
 */
export const DAWN_VENDOR_PCI_IDS: Readonly<Record<string, string>> = {
  amd: '0x1002',
  apple: '0x106b',
  arm: '0x13b5',
  google: '0x1ae0',
  'img-tec': '0x1010',
  intel: '0x8086',
  microsoft: '0x1414',
  nvidia: '0x10de',
  qualcomm: '0x5143',
  samsung: '0x144d',
};

/** What identifies the adapter in use, for matching. */
export interface AdapterIdentity {
  readonly backend: string;
  /** Dawn's vendor name ('nvidia'), or a PCI vendor id ('0x10de'); null without an adapter (wasm, cpu, tensorflow). */
  readonly vendor: string | null;
  /** Dawn's device name, for messages ('nvidia-h200'). */
  readonly name: string | null;
  /** A CPU rasterizer (lavapipe, SwiftShader, WARP): its "device" is the host's memory. */
  readonly isSoftware: boolean;
  /** The device's PCI address where known ('0000:18:00.0'). */
  readonly pciBusId: string | null;
  /** tfjs-node-gpu found a CUDA device: an NVIDIA function. */
  readonly cudaGpu: boolean;
}

export type AdapterMatch =
  /** The adapter is the CPU (software adapter, wasm, cpu, tensorflow on the CPU): no PCI device carries its data. */
  | { readonly kind: 'host'; readonly why: string }
  | { readonly kind: 'matched'; readonly bdfs: readonly [string] }
  | { readonly kind: 'ambiguous'; readonly bdfs: readonly string[] }
  /** A GPU adapter, but no display or accelerator function of its vendor (or bus id) in sysfs. */
  | { readonly kind: 'none'; readonly why: string }
  /** Nothing known about the adapter (a copy of /sys without machine.json). */
  | { readonly kind: 'unknown' };

/** '0x10de' for 'nvidia', '0x10DE' or '10de'; null for a name Dawn's table does not have. */
export function pciVendorId(vendor: string): string | null {
  const v = vendor.trim().toLowerCase();
  if (/^(0x)?[0-9a-f]{4}$/.test(v)) return `0x${v.replace(/^0x/, '')}`;
  return DAWN_VENDOR_PCI_IDS[v] ?? null;
}

/** '18:00.0' -> '0000:18:00.0'; lower case. */
export function normalizeBusId(id: string): string {
  const v = id.trim().toLowerCase();
  return /^[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/.test(v) ? `0000:${v}` : v;
}

/** Matches the adapter in use to the machine's display and accelerator functions. */
export function matchAdapter(adapter: AdapterIdentity | null, devices: readonly PciDevice[]): AdapterMatch {
  if (adapter === null) return { kind: 'unknown' };
  if (adapter.isSoftware)
    return { kind: 'host', why: `a software adapter (${adapter.name ?? adapter.vendor ?? 'unnamed'}): the CPU computes, host memory is its device memory` };
  if (adapter.pciBusId !== null) {
    const id = normalizeBusId(adapter.pciBusId);
    return devices.some((d) => d.bdf === id) ? { kind: 'matched', bdfs: [id] } : { kind: 'none', why: `no display or accelerator function at ${id}` };
  }
  let vendorId: string | null;
  if (adapter.cudaGpu) vendorId = DAWN_VENDOR_PCI_IDS.nvidia!;
  else if (adapter.vendor !== null) vendorId = pciVendorId(adapter.vendor);
  else return { kind: 'host', why: `the ${adapter.backend} backend computes on the CPU` };
  if (vendorId === null) return { kind: 'none', why: `vendor '${adapter.vendor}' has no PCI vendor id in Dawn's gpu_info.json` };
  const candidates = devices.filter((d) => d.vendor === vendorId).map((d) => d.bdf);
  if (candidates.length === 0) return { kind: 'none', why: `no display or accelerator function of vendor ${vendorId} (${adapter.vendor ?? 'nvidia'})` };
  if (candidates.length === 1) return { kind: 'matched', bdfs: [candidates[0]!] };
  return { kind: 'ambiguous', bdfs: candidates };
}
