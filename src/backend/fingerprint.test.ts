import { describe, expect, it } from 'vitest';
import { adapterSlug, cpuSlug, profileId, softwareAdapterName } from './fingerprint.js';

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
    const base = { cpuModel: 'AMD EPYC', arch: 'x64', isUsingGpuDevice: null };
    expect(profileId({ ...base, backend: 'webgpu', adapter: lavapipe })).toBe('webgpu-lavapipe-x64');
    expect(profileId({ ...base, backend: 'webgpu', adapter: h200 })).toBe('webgpu-nvidia-h200-x64');
    expect(profileId({ ...base, backend: 'wasm', adapter: null })).toBe('wasm-amd-epyc-x64');
    expect(profileId({ ...base, backend: 'tensorflow', adapter: null, isUsingGpuDevice: true })).toBe('tensorflow-cuda-x64');
    expect(profileId({ ...base, backend: 'tensorflow', adapter: null, isUsingGpuDevice: false })).toBe('tensorflow-cpu-amd-epyc-x64');
  });
});
