import * as tf from '@tensorflow/tfjs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { profileId } from '../backend/fingerprint.js';
import type { BackendContext } from '../backend/types.js';
import { describeCapabilities } from '../transfer/capabilities.js';
import type { RunProfile } from './schema.js';

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

/** The hardware/software profile of a running backend, as stored in every run record; measured once, at backend start. */
export function describeHardwareProfile(context: BackendContext): RunProfile {
  const cpus = os.cpus();
  const cpuModel = cpus[0]?.model.trim() ?? 'unknown';
  return {
    id: profileId({ backend: context.name, adapter: context.adapter, cpuModel, arch: os.arch(), isUsingGpuDevice: context.isUsingGpuDevice }),
    backend: context.name,
    backendReason: context.reason,
    adapter: context.adapter ? { ...context.adapter, features: [...context.adapter.features] } : null,
    isUsingGpuDevice: context.isUsingGpuDevice,
    cpu: { model: cpuModel, cores: Math.max(1, cpus.length) },
    os: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    versions: packageVersions(),
    transferBoundary: context.transfers.boundary,
    capabilities: describeCapabilities(context),
  };
}
