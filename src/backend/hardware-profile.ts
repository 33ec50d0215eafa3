import * as tf from '@tensorflow/tfjs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { buildHardwareProfile, type CapabilityTable, type HardwareProfile, type ProfileHost } from './profile.js';
import { tensorflowVersions } from './tensorflow.js';
import type { BackendContext } from './types.js';

const require = createRequire(import.meta.url);

/** Installed versions of the packages that decide the numbers: tfjs parts, backends, Dawn, tfjs-node and the TensorFlow it runs. */
function packageVersions(): Record<string, string> {
  const versions: Record<string, string> = Object.fromEntries(Object.entries(tf.version).map(([k, v]) => [k, String(v)]));
  for (const name of ['@tensorflow/tfjs-backend-webgpu', '@tensorflow/tfjs-backend-wasm', 'webgpu', '@tensorflow/tfjs-node', '@tensorflow/tfjs-node-gpu']) {
    try {
      versions[name.replace('@tensorflow/', '')] = (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      // not installed (tfjs-node: by npm run setup:tensorflow; tfjs-node-gpu: an optional peer)
    }
  }
  // Once the tensorflow backend runs: TensorFlow's own version, read from its C library (TF_Version).
  return { ...versions, ...tensorflowVersions() };
}

export type { CapabilityTable, HardwareProfile } from './profile.js';

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
  return buildHardwareProfile(context, capabilities, nodeProfileHost());
}

/** This Node process's host, as a profile states it (the browser host reports the same for its page). */
export function nodeProfileHost(): ProfileHost {
  // The cores this process may run on (its CPU affinity), not every core the host has: where the
  // CPU does the device's work, this is what the id names and the record's cpu.cores holds.
  return {
    cpuModel: hostCpuModel(),
    cores: Math.max(1, os.availableParallelism()),
    arch: os.arch(),
    os: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    versions: packageVersions(),
    browser: null,
  };
}
