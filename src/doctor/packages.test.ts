// The package lookup on a real folder tree laid out as npm lays out a user's project: the harness
// in <project>/node_modules/gpu-transfer-perf, its dependencies hoisted into <project>/node_modules.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkPackages, checkWasmBackend } from './checks.js';
import { installedVersion, resolvePackageDir } from './packages.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const temp = tempFolder('gtp-packages-');
let project: string;
let harness: string;

async function writePackage(dir: string, name: string, version: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, version }));
}

beforeAll(async () => {
  project = temp.at('project');
  harness = join(project, 'node_modules', 'gpu-transfer-perf');
  await writePackage(harness, 'gpu-transfer-perf', '0.1.0');
  // Hoisted: only the project's node_modules has it.
  await writePackage(join(project, 'node_modules', 'gtp-hoisted-dep'), 'gtp-hoisted-dep', '1.2.3');
  await writePackage(join(project, 'node_modules', '@scope', 'gtp-scoped-dep'), '@scope/gtp-scoped-dep', '2.0.0');
  // Both places have it: npm nests the harness's own version when the project needs another.
  await writePackage(join(project, 'node_modules', 'gtp-nested-dep'), 'gtp-nested-dep', '9.0.0');
  await writePackage(join(harness, 'node_modules', 'gtp-nested-dep'), 'gtp-nested-dep', '1.0.0');
  // A folder without package.json is not a package (what a failed install leaves behind).
  await mkdir(join(project, 'node_modules', 'gtp-empty-dir'), { recursive: true });
  const wasm = join(project, 'node_modules', '@tensorflow', 'tfjs-backend-wasm');
  await writePackage(wasm, '@tensorflow/tfjs-backend-wasm', '4.22.0');
  await mkdir(join(wasm, 'dist'));
  for (const binary of ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm']) await writeFile(join(wasm, 'dist', binary), '');
});

describe('finding installed packages as Node does', () => {
  it("finds a package in a parent folder's node_modules, the nearest one first", () => {
    expect(resolvePackageDir('gtp-hoisted-dep', harness)).toBe(join(project, 'node_modules', 'gtp-hoisted-dep'));
    expect(installedVersion(harness, 'gtp-hoisted-dep')).toBe('1.2.3');
    expect(installedVersion(harness, '@scope/gtp-scoped-dep')).toBe('2.0.0');
    expect(installedVersion(harness, 'gtp-nested-dep')).toBe('1.0.0');
    expect(installedVersion(project, 'gtp-nested-dep')).toBe('9.0.0');
  });

  it('reports a package no folder on the way has as missing, and stops where it is told to', () => {
    expect(resolvePackageDir('gtp-not-installed', harness)).toBeNull();
    expect(installedVersion(harness, 'gtp-not-installed')).toBeNull();
    expect(installedVersion(harness, 'gtp-empty-dir')).toBeNull();
    // The kit's bound: nothing above the harness's own folder counts.
    expect(resolvePackageDir('gtp-hoisted-dep', harness, harness)).toBeNull();
    expect(resolvePackageDir('gtp-nested-dep', harness, harness)).toBe(join(harness, 'node_modules', 'gtp-nested-dep'));
  });

  it('doctor: hoisted packages are present, a missing one is named; tsx counts only from sources', () => {
    const manifest = {
      dependencies: { 'gtp-hoisted-dep': '1.2.3', '@scope/gtp-scoped-dep': '2.0.0', 'gtp-nested-dep': '1.0.0' },
      devDependencies: { tsx: '4.23.15' },
    };
    const versionOf = (name: string) => installedVersion(harness, name);
    expect(checkPackages(manifest, versionOf, false)).toMatchObject({ status: 'ok', reason: expect.stringMatching(/^3 runtime packages present/) });
    expect(checkPackages(manifest, versionOf, true)).toMatchObject({ status: 'fail', reason: expect.stringMatching(/1 of 4 runtime packages missing: tsx;/) });
    const missing = { dependencies: { ...manifest.dependencies, 'gtp-not-installed': '1.0.0' } };
    expect(checkPackages(missing, versionOf, false)).toMatchObject({
      status: 'fail',
      reason: expect.stringMatching(/1 of 4 runtime packages missing: gtp-not-installed;/),
    });
  });

  it("doctor: the wasm backend's binary is found in a hoisted tfjs-backend-wasm", () => {
    expect(checkWasmBackend(harness, false).status).toBe('ok');
    expect(checkWasmBackend(temp.at('elsewhere'), false).status).toBe('fail');
  });
});
