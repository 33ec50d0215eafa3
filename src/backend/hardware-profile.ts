import * as tf from '@tensorflow/tfjs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { profileId } from './fingerprint.js';
import type { AdapterDescription, BackendContext, BackendName } from './types.js';

const require = createRequire(import.meta.url);

/** Installed versions of the packages that decide the numbers: tfjs parts, backends, Dawn. */
function packageVersions(): Record<string, string> {
  const versions: Record<string, string> = Object.fromEntries(Object.entries(tf.version).map(([k, v]) => [k, String(v)]));
  for (const name of ['@tensorflow/tfjs-backend-webgpu', '@tensorflow/tfjs-backend-wasm', 'webgpu', '@tensorflow/tfjs-node-gpu']) {
    try {
      versions[name.replace('@tensorflow/', '')] = (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      // not installed (tfjs-node-gpu is an optional peer)
    }
  }
  return versions;
}

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

/**
 * The host's CPU model: the one place a profile's CPU enters. Node's os.cpus() reads it on Linux
 * from /proc/cpuinfo ('model name'), so a test can run the real CLI as if on another CPU by binding
 * a crafted cpuinfo over /proc/cpuinfo in a mount namespace (src/cli/other-cpu.e2e.test.ts).
 */
export function hostCpuModel(): string {
  return os.cpus()[0]?.model.trim() ?? 'unknown';
}

/**
 * The hardware/software profile of a running backend, as stored in every run record; measured
 * once, at backend start. `capabilities` come from the layer above (transfer/capabilities.ts),
 * which knows the kernels.
 */
export function describeHardwareProfile(context: BackendContext, capabilities: CapabilityTable): HardwareProfile {
  const cpuModel = hostCpuModel();
  // The cores this process may run on (its CPU affinity), not every core the host has: where the
  // CPU does the device's work, this is what the id names and the record's cpu.cores holds.
  const cores = Math.max(1, os.availableParallelism());
  return {
    id: profileId({ backend: context.name, adapter: context.adapter, cpuModel, cpuCores: cores, arch: os.arch(), isUsingGpuDevice: context.isUsingGpuDevice }),
    backend: context.name,
    backendReason: context.reason,
    adapter: context.adapter ? { ...context.adapter, features: [...context.adapter.features] } : null,
    isUsingGpuDevice: context.isUsingGpuDevice,
    cpu: { model: cpuModel, cores },
    os: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    versions: packageVersions(),
    transferBoundary: context.transfers.boundary,
    capabilities,
  };
}
