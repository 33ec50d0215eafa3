import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkCudaLibraries,
  checkTensorflowGpuRoute,
  checkExpectGpu,
  checkHostLoad,
  checkNode,
  checkOneTfjs,
  checkPackages,
  checkTensorflowBackend,
  checkWebGpuAdapter,
  type WebGpuFacts,
} from './checks.js';
import { cudaRequirementFor, cudaSonames, TF_2_21_CUDA } from './cuda.js';

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

  const CPU_BUILD = '@tensorflow/tfjs-node';
  const GPU_BUILD = '@tensorflow/tfjs-node-gpu';
  const ran = (isUsingGpuDevice: boolean) => ({ tensorflow: '2.21.0', packageVersion: '4.22.0', isUsingGpuDevice });

  it('tensorflow: not installed is information; the CPU build on the CPU is right; tfjs-node-gpu on the CPU warns, fails under --expect-gpu', () => {
    expect(checkTensorflowBackend({ package: null, running: null }, true)).toMatchObject({
      status: 'info',
      reason: expect.stringMatching(/neither @tensorflow\/tfjs-node nor @tensorflow\/tfjs-node-gpu.*setup:tensorflow/),
    });
    expect(checkTensorflowBackend({ package: CPU_BUILD, running: null }, false).reason).toMatch(/--backend tensorflow/);
    expect(checkTensorflowBackend({ package: CPU_BUILD, running: ran(false) }, false)).toMatchObject({
      status: 'ok',
      reason: expect.stringMatching(/TensorFlow 2\.21\.0 \(TF_Version\) through @tensorflow\/tfjs-node 4\.22\.0, the CPU build: isUsingGpuDevice false/),
    });
    expect(checkTensorflowBackend({ package: CPU_BUILD, running: ran(false) }, true).status).toBe('fail');
    expect(checkTensorflowBackend({ package: GPU_BUILD, running: ran(true) }, true).status).toBe('ok');
    expect(checkTensorflowBackend({ package: GPU_BUILD, running: ran(false) }, false).status).toBe('warn');
    expect(checkTensorflowBackend({ package: GPU_BUILD, running: ran(false) }, true).status).toBe('fail');
  });

  it('CUDA libraries are those of the TensorFlow in use; absent is information for the CPU build, a warning for tfjs-node-gpu', () => {
    const locate = (found: readonly string[]) =>
      TF_2_21_CUDA.libraries.map((l) =>
        found.includes(l.soname) ? { name: l.soname, path: `/usr/lib/${l.soname}`, via: 'ldconfig' as const } : { name: l.soname, path: null, via: null },
      );
    const some = locate(['libcudnn.so.9']);
    expect(checkCudaLibraries(some, null, TF_2_21_CUDA, null, false)).toMatchObject({
      status: 'info',
      reason: expect.stringMatching(/CUDA 12 \/ cuDNN 9 \(TensorFlow 2\.21's CUDA build\): libcudart\.so\.12, .* not found.*found libcudnn\.so\.9 at/),
    });
    expect(checkCudaLibraries(some, null, TF_2_21_CUDA, CPU_BUILD, false)).toMatchObject({
      status: 'info',
      reason: expect.stringMatching(/not used by @tensorflow\/tfjs-node, the CPU build/),
    });
    expect(checkCudaLibraries(some, null, TF_2_21_CUDA, GPU_BUILD, false)).toMatchObject({
      status: 'warn',
      reason: expect.stringMatching(/pip install nvidia-cuda-runtime-cu12 nvidia-cublas-cu12 /),
    });
    expect(checkCudaLibraries(some, 'ldconfig could not be run (ENOENT)', TF_2_21_CUDA, GPU_BUILD, true)).toMatchObject({
      status: 'fail',
      reason: expect.stringMatching(/ENOENT/),
    });
    expect(checkCudaLibraries(locate(cudaSonames(TF_2_21_CUDA)), null, TF_2_21_CUDA, GPU_BUILD, true).status).toBe('ok');
    // tfjs-node-gpu's own libtensorflow 2.9.1 wants CUDA 11.2 / cuDNN 8.1, by version.
    expect(cudaSonames(cudaRequirementFor('2.9.1'))).toEqual(['libcudart.so.11.0', 'libcudnn.so.8']);
    expect(cudaRequirementFor('2.21.0')).toBe(TF_2_21_CUDA);
  });

  it('tells a GPU user which pieces of the tfjs-node-gpu route are missing', () => {
    const none = TF_2_21_CUDA.libraries.map((l) => ({ name: l.soname, path: null, via: null }));
    const cpu = checkTensorflowGpuRoute({ package: CPU_BUILD, running: ran(false) }, none, TF_2_21_CUDA, false);
    expect(cpu.status).toBe('info');
    expect(cpu.reason).toMatch(/UNVERIFIED/);
    expect(cpu.reason).toMatch(/@tensorflow\/tfjs-node-gpu@4\.22\.0 \(npm install --ignore-scripts/);
    expect(cpu.reason).toMatch(/the `tensorflow` wheel's C library/);
    expect(cpu.reason).toMatch(
      /nvidia-cuda-runtime-cu12, nvidia-cudnn-cu12, nvidia-cublas-cu12, .*nvidia-nccl-cu12 \(the CUDA 12 libraries of its and-cuda extra\)/,
    );
    const found = TF_2_21_CUDA.libraries.map((l) => ({ name: l.soname, path: `/x/${l.soname}`, via: 'LD_LIBRARY_PATH' as const }));
    expect(checkTensorflowGpuRoute({ package: GPU_BUILD, running: ran(true) }, found, TF_2_21_CUDA, true).status).toBe('ok');
    const noGpu = checkTensorflowGpuRoute({ package: GPU_BUILD, running: ran(false) }, found, TF_2_21_CUDA, true);
    expect(noGpu).toMatchObject({ status: 'fail', reason: expect.stringMatching(/a CUDA build of TensorFlow under it/) });
    expect(noGpu.reason).not.toMatch(/nvidia-/);
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
