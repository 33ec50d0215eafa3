import { describe, expect, it } from 'vitest';
import {
  adapterSlug,
  cpuPart,
  cpuSlug,
  deviceAndHostOf,
  legacyIdOf,
  legacyProfileId,
  profileId,
  sameDeviceOtherHost,
  softwareAdapterName,
} from './fingerprint.js';

const lavapipe = {
  vendor: 'mesa',
  architecture: 'software',
  device: 'llvmpipe-llvm-15-0-6-256-bits-',
  description: 'llvmpipe: Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) 0.0.1',
};
const h200 = { vendor: 'nvidia', architecture: 'hopper', device: 'NVIDIA H200', description: 'NVIDIA: 570.1' };

describe('hardware fingerprint', () => {
  it('tells software adapters apart from GPUs', () => {
    expect(softwareAdapterName(lavapipe)).toBe('lavapipe');
    expect(softwareAdapterName({ ...h200, description: 'SwiftShader Device (Subzero)' })).toBe('swiftshader');
    expect(softwareAdapterName(h200)).toBeNull();
  });

  it('names an adapter without repeating the vendor', () => {
    expect(adapterSlug(lavapipe)).toBe('lavapipe');
    expect(adapterSlug(h200)).toBe('nvidia-h200');
    expect(adapterSlug({ vendor: 'amd', architecture: 'rdna-3', device: '', description: '' })).toBe('amd-rdna-3');
  });

  it('shortens CPU models', () => {
    expect(cpuSlug('AMD EPYC')).toBe('amd-epyc');
    expect(cpuSlug('Intel(R) Xeon(R) CPU @ 2.20GHz')).toBe('intel-xeon');
    expect(cpuSlug('AMD EPYC 7B13 64-Core Processor')).toBe('amd-epyc-7b13');
  });

  it('builds stable profile ids per backend', () => {
    const base = { cpuModel: 'AMD EPYC', cpuCores: 2, arch: 'x64', isUsingGpuDevice: null };
    expect(profileId({ ...base, backend: 'webgpu', adapter: h200 })).toBe('webgpu-nvidia-h200-x64');
    expect(profileId({ ...base, backend: 'wasm', adapter: null })).toBe('wasm-amd-epyc-x64');
    expect(profileId({ ...base, backend: 'cpu', adapter: null })).toBe('cpu-amd-epyc-x64');
    expect(profileId({ ...base, backend: 'tensorflow', adapter: null, isUsingGpuDevice: true })).toBe('tensorflow-cuda-x64');
  });

  it('names the browser, its major version and the adapter in a browser; the CPU where the adapter is software (issue 43)', () => {
    const base = { cpuModel: 'AMD EPYC', cpuCores: 2, arch: 'x64', isUsingGpuDevice: null, browser: { name: 'chromium', major: 156 } };
    const swiftshader = { vendor: 'google', architecture: 'swiftshader', device: '', description: '' };
    const angle = {
      vendor: 'Google Inc. (Google)',
      architecture: '',
      device: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)',
      description: '',
    };
    expect(profileId({ ...base, backend: 'webgpu', adapter: swiftshader })).toBe('webgpu-chromium-156-swiftshader-amd-epyc-2c-x64');
    expect(profileId({ ...base, backend: 'webgl', adapter: angle })).toBe('webgl-chromium-156-swiftshader-amd-epyc-2c-x64');
    expect(profileId({ ...base, backend: 'webgpu', adapter: h200 })).toBe('webgpu-chromium-156-nvidia-h200-x64');
    // No Node id's pattern reads a browser id as a renamed Node profile.
    expect(legacyIdOf('webgpu-chromium-156-swiftshader-amd-epyc-2c-x64')).toBeNull();
  });

  it('names the CPU and its cores where the CPU does the device work over its cores', () => {
    const base = { cpuModel: 'AMD EPYC', cpuCores: 2, arch: 'x64', isUsingGpuDevice: null };
    expect(cpuPart('AMD EPYC 7B13 64-Core Processor', 4)).toBe('amd-epyc-7b13-4c');
    expect(profileId({ ...base, backend: 'webgpu', adapter: lavapipe })).toBe('webgpu-lavapipe-amd-epyc-2c-x64');
    expect(profileId({ ...base, cpuCores: 4, backend: 'webgpu', adapter: lavapipe })).toBe('webgpu-lavapipe-amd-epyc-4c-x64');
    expect(profileId({ ...base, cpuModel: 'Intel(R) Xeon(R) Processor', backend: 'webgpu', adapter: lavapipe })).toBe('webgpu-lavapipe-intel-xeon-2c-x64');
    const swiftshader = { ...h200, vendor: 'google', description: 'SwiftShader Device (Subzero)' };
    expect(profileId({ ...base, backend: 'webgpu', adapter: swiftshader })).toBe('webgpu-swiftshader-amd-epyc-2c-x64');
    expect(profileId({ ...base, backend: 'tensorflow', adapter: null, isUsingGpuDevice: false })).toBe('tensorflow-cpu-amd-epyc-2c-x64');
    // One thread whatever the machine has (no wasm threads in Node; plain JavaScript): the model alone.
    expect(profileId({ ...base, cpuCores: 64, backend: 'wasm', adapter: null })).toBe('wasm-amd-epyc-x64');
  });

  it('knows the id each setup had before, from the parts and from the new id alone', () => {
    const base = { cpuModel: 'AMD EPYC 7B13', cpuCores: 2, arch: 'arm64', isUsingGpuDevice: false };
    const cases = [
      { ...base, backend: 'webgpu' as const, adapter: lavapipe, legacy: 'webgpu-lavapipe-arm64', cpu: 'amd-epyc-7b13-2c' },
      { ...base, backend: 'tensorflow' as const, adapter: null, legacy: 'tensorflow-cpu-amd-epyc-7b13-arm64', cpu: 'amd-epyc-7b13-2c' },
    ];
    for (const { legacy, cpu, ...parts } of cases) {
      expect(legacyProfileId(parts)).toBe(legacy);
      expect(legacyIdOf(profileId(parts))).toEqual({ legacyId: legacy, cpu });
    }
    for (const id of ['webgpu-nvidia-h200-x64', 'wasm-amd-epyc-x64', 'tensorflow-cuda-x64', 'webgpu-lavapipe-x64']) expect(legacyIdOf(id)).toBeNull();
    expect(legacyProfileId({ ...base, backend: 'webgpu', adapter: h200 })).toBe('webgpu-nvidia-h200-arm64');
  });

  it("splits a software adapter's id into its device (adapter, cores, arch) and its host's CPU model; other ids have no other host", () => {
    expect(deviceAndHostOf('webgpu-lavapipe-amd-epyc-2c-x64')).toEqual({ device: 'webgpu-lavapipe-*-2c-x64', host: 'amd-epyc' });
    expect(deviceAndHostOf('webgpu-lavapipe-intel-xeon-platinum-2c-x64')).toEqual({ device: 'webgpu-lavapipe-*-2c-x64', host: 'intel-xeon-platinum' });
    expect(sameDeviceOtherHost('webgpu-lavapipe-intel-xeon-platinum-2c-x64', 'webgpu-lavapipe-amd-epyc-2c-x64')).toBe(true);
    // The same host is not "another host"; another core count, adapter or architecture is another device.
    expect(sameDeviceOtherHost('webgpu-lavapipe-amd-epyc-2c-x64', 'webgpu-lavapipe-amd-epyc-2c-x64')).toBe(false);
    expect(sameDeviceOtherHost('webgpu-lavapipe-intel-xeon-4c-x64', 'webgpu-lavapipe-amd-epyc-2c-x64')).toBe(false);
    expect(sameDeviceOtherHost('webgpu-swiftshader-intel-xeon-2c-x64', 'webgpu-lavapipe-amd-epyc-2c-x64')).toBe(false);
    expect(sameDeviceOtherHost('webgpu-lavapipe-intel-xeon-2c-arm64', 'webgpu-lavapipe-amd-epyc-2c-x64')).toBe(false);
    // In a browser: the browser and its major version are part of the device (issue 43).
    expect(deviceAndHostOf('webgpu-chromium-156-swiftshader-amd-epyc-2c-x64')).toEqual({
      device: 'webgpu-chromium-156-swiftshader-*-2c-x64',
      host: 'amd-epyc',
    });
    expect(sameDeviceOtherHost('webgl-chromium-156-swiftshader-intel-xeon-2c-x64', 'webgl-chromium-156-swiftshader-amd-epyc-2c-x64')).toBe(true);
    expect(sameDeviceOtherHost('webgpu-chromium-157-swiftshader-intel-xeon-2c-x64', 'webgpu-chromium-156-swiftshader-amd-epyc-2c-x64')).toBe(false);
    expect(sameDeviceOtherHost('webgl-chromium-156-swiftshader-intel-xeon-2c-x64', 'webgpu-chromium-156-swiftshader-amd-epyc-2c-x64')).toBe(false);
    // Where the CPU is the device, another CPU is another device; a GPU's id names no host.
    for (const id of ['wasm-amd-epyc-x64', 'cpu-amd-epyc-x64', 'tensorflow-cpu-amd-epyc-2c-x64', 'webgpu-nvidia-h200-x64', 'webgpu-lavapipe-x64'])
      expect(deviceAndHostOf(id), id).toBeNull();
    // The ids profileId makes, read back.
    const id = profileId({
      backend: 'webgpu',
      adapter: lavapipe,
      cpuModel: 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz',
      cpuCores: 2,
      arch: 'x64',
      isUsingGpuDevice: true,
    });
    expect(id).toBe('webgpu-lavapipe-intel-xeon-platinum-2c-x64');
    expect(sameDeviceOtherHost(id, 'webgpu-lavapipe-amd-epyc-2c-x64')).toBe(true);
  });
});
