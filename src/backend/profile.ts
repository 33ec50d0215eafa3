/**
 * The hardware profile of a started backend from plain values, with no host access: Node
 * (hardware-profile.ts, reading os and package.json files) and the browser (browser-start.ts,
 * reading what the page and the Node host tell it) both build their profile here.
 */
import { type BrowserOfProfile, profileId } from './fingerprint.js';
import type { AdapterDescription, BackendContext, BackendName } from './types.js';

/** What a backend can do that the article's advice depends on, by name (transfer/capabilities.ts describes them). */
export type CapabilityTable = Readonly<Record<string, { readonly supported: boolean; readonly detail: string }>>;

/** The hardware and software a run measured on: the run record's `profile` (results/schema.ts checks it is this shape). */
export interface HardwareProfile {
  readonly id: string;
  readonly backend: BackendName;
  readonly backendReason: string;
  readonly adapter: (Omit<AdapterDescription, 'features'> & { features: string[] }) | null;
  readonly isUsingGpuDevice: boolean | null;
  readonly cpu: { readonly model: string; readonly cores: number };
  readonly os: string;
  readonly node: string;
  readonly versions: Record<string, string>;
  readonly transferBoundary: string;
  readonly capabilities: CapabilityTable;
}

/** The host a backend runs on, as its profile states it. */
export interface ProfileHost {
  readonly cpuModel: string;
  /** The cores the measuring process may run on. */
  readonly cores: number;
  readonly arch: string;
  readonly os: string;
  readonly node: string;
  readonly versions: Record<string, string>;
  /** The browser the backend runs in, null in Node. */
  readonly browser: BrowserOfProfile | null;
}

/** The profile of a running backend on `host`. */
export function buildHardwareProfile(context: BackendContext, capabilities: CapabilityTable, host: ProfileHost): HardwareProfile {
  return {
    id: profileId({
      backend: context.name,
      adapter: context.adapter,
      cpuModel: host.cpuModel,
      cpuCores: host.cores,
      arch: host.arch,
      isUsingGpuDevice: context.isUsingGpuDevice,
      browser: host.browser,
    }),
    backend: context.name,
    backendReason: context.reason,
    adapter: context.adapter ? { ...context.adapter, features: [...context.adapter.features] } : null,
    isUsingGpuDevice: context.isUsingGpuDevice,
    cpu: { model: host.cpuModel, cores: host.cores },
    os: host.os,
    node: host.node,
    versions: host.versions,
    transferBoundary: context.transfers.boundary,
    capabilities,
  };
}
