import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkCudaLibraries,
  checkExpectGpu,
  checkHostLoad,
  checkNode,
  checkOneTfjs,
  checkPackages,
  checkTensorflowBackend,
  checkWebGpuAdapter,
  type WebGpuFacts,
} from './checks.js';

const MiB = 1024 * 1024;
const LAVAPIPE: WebGpuFacts = {
  vendor: 'mesa',
  architecture: 'software',
  device: 'llvmpipe-llvm-15-0-6-256-bits-',
  description: 'llvmpipe: Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) 0.0.1',
  isSoftware: true,
  isFallbackAdapter: true,
  features: ['shader-f16', 'timestamp-query'],
  maxBufferSize: 4096 * MiB,
  maxStorageBufferBindingSize: 128 * MiB,
};
const H200: WebGpuFacts = {
  ...LAVAPIPE,
  vendor: 'nvidia',
  architecture: 'hopper',
  device: 'NVIDIA H200',
  description: 'NVIDIA 570.86',
  isSoftware: false,
  isFallbackAdapter: false,
  features: [],
};
const byId = (checks: ReturnType<typeof checkWebGpuAdapter>, id: string) => checks.find((c) => c.id === id)!;

describe('setup checks', () => {
  it('Node: 20 and later pass, older fails', () => {
    expect(checkNode('v20.20.2').status).toBe('ok');
    expect(checkNode('v22.1.0').status).toBe('ok');
    expect(checkNode('v18.19.0')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/needs >= 20/) });
  });

  it('packages: missing fails, a version other than the pin warns; vitest and tsx count, typescript does not', () => {
    const manifest = {
      dependencies: { webgpu: '0.6.2', '@tensorflow/tfjs': '4.22.0' },
      devDependencies: { vitest: '4.1.12', tsx: '4.23.15', vite: '8.3.8', typescript: '5.9.3' },
    };
    const all = (name: string) => ({ webgpu: '0.6.2', '@tensorflow/tfjs': '4.22.0', vitest: '4.1.12', tsx: '4.23.15', vite: '8.3.8' })[name] ?? null;
    expect(checkPackages(manifest, all)).toMatchObject({ status: 'ok', reason: expect.stringMatching(/^5 runtime packages/) });
    expect(checkPackages(manifest, (n) => (n === 'tsx' ? null : all(n)))).toMatchObject({ status: 'fail', reason: expect.stringMatching(/missing: tsx/) });
    expect(checkPackages(manifest, (n) => (n === 'webgpu' ? '0.6.3' : all(n)))).toMatchObject({
      status: 'warn',
      reason: expect.stringMatching(/webgpu 0.6.3 \(pinned 0.6.2\)/),
    });
  });

  it('packages: required peers count like dependencies; a missing optional peer is named with what it adds, not a failure', () => {
    const manifest = {
      dependencies: { webgpu: '0.6.2' },
      peerDependencies: { '@tensorflow/tfjs': '4.22.0', vitest: '~4.1.12', vega: '5.33.1', mnist: '1.1.0' },
      peerDependenciesMeta: { vega: { optional: true }, mnist: { optional: true } },
    };
    const installed: Record<string, string> = { webgpu: '0.6.2', '@tensorflow/tfjs': '4.22.0', vitest: '4.1.13', vite: '8.3.8', mnist: '1.1.0' };
    const versionOf = (name: string) => installed[name] ?? null;
    // vitest's range is not a pin: 4.1.13 is fine; vega is optional and absent.
    expect(checkPackages(manifest, versionOf, false)).toEqual({
      id: 'packages',
      status: 'ok',
      reason:
        '3 runtime packages present at their pinned versions (tfjs 4.22.0, webgpu 0.6.2, vitest 4.1.13, ...); optional, not installed: vega@5.33.1 (charts)',
    });
    expect(checkPackages(manifest, (n) => (n === '@tensorflow/tfjs' ? null : versionOf(n)), false)).toMatchObject({
      status: 'fail',
      reason: expect.stringMatching(/missing: @tensorflow\/tfjs;/),
    });
  });

  it('one copy of tfjs-core: the harness nested its own copy (two engines) fails; a hoisted shared one passes', async () => {
    const project = await mkdtemp(join(tmpdir(), 'gtp-one-tfjs-'));
    try {
      const pkg = async (dir: string, version: string) => {
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, 'package.json'), JSON.stringify({ name: '@tensorflow/tfjs-core', version }));
      };
      const harness = join(project, 'node_modules/gpu-transfer-perf');
      await mkdir(harness, { recursive: true });
      await pkg(join(project, 'node_modules/@tensorflow/tfjs-core'), '4.21.0');
      expect(checkOneTfjs(harness, project)).toMatchObject({ status: 'ok' });
      await pkg(join(harness, 'node_modules/@tensorflow/tfjs-core'), '4.22.0');
      expect(checkOneTfjs(harness, project)).toMatchObject({
        status: 'fail',
        reason: expect.stringMatching(/^two copies of @tensorflow\/tfjs-core: .*gpu-transfer-perf\/node_modules\/@tensorflow\/tfjs-core \(the harness's\)/),
      });
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });

  it('a software adapter warns, and fails under --expect-gpu, saying what to do', () => {
    const plain = checkWebGpuAdapter(LAVAPIPE, false);
    expect(byId(plain, 'webgpu.software')).toMatchObject({ status: 'warn', reason: expect.stringMatching(/SOFTWARE adapter.*vulkaninfo/) });
    expect(byId(plain, 'webgpu.adapter').reason).toMatch(/driver .*Mesa 25.0.7/);
    expect(byId(checkWebGpuAdapter(LAVAPIPE, true), 'webgpu.software')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/--expect-gpu/) });
    expect(byId(checkWebGpuAdapter(H200, true), 'webgpu.software').status).toBe('ok');
  });

  it('features and limits: missing timestamp-query warns; limits below the WebGPU defaults warn', () => {
    const gpu = checkWebGpuAdapter(H200, false);
    expect(byId(gpu, 'webgpu.timestamp-query').status).toBe('warn');
    expect(byId(gpu, 'webgpu.shader-f16').reason).toMatch(/not offered/);
    expect(byId(gpu, 'webgpu.limits')).toMatchObject({
      status: 'ok',
      reason: expect.stringMatching(/maxBufferSize 4,096 MiB, maxStorageBufferBindingSize 128 MiB/),
    });
    expect(byId(checkWebGpuAdapter({ ...H200, maxStorageBufferBindingSize: 64 * MiB }, false), 'webgpu.limits').status).toBe('warn');
  });

  it('tfjs-node-gpu: not installed is information; a CPU fallback warns, fails under --expect-gpu', () => {
    expect(checkTensorflowBackend(false, null, true).status).toBe('info');
    expect(checkTensorflowBackend(true, null, false).reason).toMatch(/--backend tensorflow/);
    expect(checkTensorflowBackend(true, true, true).status).toBe('ok');
    expect(checkTensorflowBackend(true, false, false).status).toBe('warn');
    expect(checkTensorflowBackend(true, false, true).status).toBe('fail');
  });

  it('CUDA libraries matter only when tfjs-node-gpu is installed', () => {
    const missing = [
      { name: 'libcudart.so.11.0', path: null, via: null },
      { name: 'libcudnn.so.8', path: '/usr/lib/libcudnn.so.8', via: 'ldconfig' as const },
    ];
    expect(checkCudaLibraries(missing, null, false, false)).toMatchObject({
      status: 'info',
      reason: expect.stringMatching(/libcudart.so.11.0 not found.*found libcudnn.so.8 at/),
    });
    expect(checkCudaLibraries(missing, null, true, false).status).toBe('warn');
    expect(checkCudaLibraries(missing, 'ldconfig could not be run (ENOENT)', true, true)).toMatchObject({
      status: 'fail',
      reason: expect.stringMatching(/ENOENT/),
    });
    expect(checkCudaLibraries([{ ...missing[1]!, name: 'libcudart.so.11.0' }, missing[1]!], null, true, true).status).toBe('ok');
  });

  it('host load: other processes holding the CPUs make the host busy', () => {
    expect(checkHostLoad({ load1: 1.2, cores: 2, otherCpu: 0.05, busy: false }).status).toBe('ok');
    expect(checkHostLoad({ load1: 6.1, cores: 2, otherCpu: 0.63, busy: true })).toMatchObject({
      status: 'warn',
      reason: expect.stringMatching(/other processes used 63% of 2 cores .*load average 6.1.*busy/),
    });
  });

  it('--expect-gpu fails on a backend without a GPU', () => {
    expect(checkExpectGpu('wasm', true)?.status).toBe('fail');
    expect(checkExpectGpu('webgpu', true)).toBeNull();
    expect(checkExpectGpu('cpu', false)).toBeNull();
  });
});
