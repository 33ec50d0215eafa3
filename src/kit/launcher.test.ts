// The kit's launcher (./run, kit/run.mjs) refusing bad flags before it measures anything: the
// real launcher in a kit-shaped folder (run, kit/run.mjs, and the harness's src, perf and
// node_modules linked in, as an unpacked kit has them), without building a whole kit.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { perfFlagsProblem } from './check-perf-flags.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const ROOT = resolve(import.meta.dirname, '../..');

const temp = tempFolder('gtp-launcher-');
beforeAll(async () => {
  await mkdir(temp.at('kit'));
  await copyFile(join(ROOT, 'scripts/kit/run'), temp.at('run'));
  await copyFile(join(ROOT, 'scripts/kit/run.mjs'), temp.at('kit/run.mjs'));
  await copyFile(join(ROOT, 'scripts/kit/next-steps.mjs'), temp.at('kit/next-steps.mjs'));
  for (const dir of ['src', 'perf', 'node_modules']) await symlink(join(ROOT, dir), temp.at(dir), 'dir');
});

/** Runs ./run in the kit folder; never throws on a non-zero exit. */
async function runKit(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('/bin/sh', ['./run', ...args], {
      cwd: temp.path,
      env: { ...process.env, PERF_BACKEND: '' },
      timeout: 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : -1, output: e.stdout + e.stderr };
  }
}

describe("the kit's ./run refuses bad flags before any doctor run (issue 21 #13)", () => {
  it.each([
    { args: ['--bogus'], cause: /error: perf: Unknown option '--bogus'/ },
    { args: ['--scenario', 'nope'], cause: /error: unknown scenario 'nope'/ },
    { args: ['--backend', 'gpu'], cause: /error: --backend must be one of .* got 'gpu'/ },
    { args: ['--out'], cause: /error: --out needs a value \(the run record file to write\)/ },
    { args: ['--out=', '--scenario', '1'], cause: /error: --out needs a value/ },
    { args: ['--out', '--scenario', '1'], cause: /error: --out needs a value/ },
    { args: ['--doctor-runs'], cause: /error: --doctor-runs needs a value/ },
    { args: ['--doctor-runs', 'two'], cause: /error: --doctor-runs must be a whole number, got 'two'/ },
  ])('./run $args: exit 2, one cause, no doctor run, nothing written', async ({ args, cause }) => {
    const { code, output } = await runKit(args);
    expect(code, output).toBe(2);
    expect(output).toMatch(cause);
    expect(output).not.toMatch(/== doctor/);
    expect(await readdir(temp.path)).not.toContain('results');
  });
});

describe('perfFlagsProblem (what the launcher asks before measuring)', () => {
  it('takes what perf takes', () => {
    expect(perfFlagsProblem(['--scenario', '1', '--scenario', 'speedup', '--scale', 'quick', '--backend', 'webgpu'], {}, ROOT)).toBeNull();
    expect(perfFlagsProblem([], {}, ROOT)).toBeNull();
    expect(perfFlagsProblem(['--help'], {}, ROOT)).toBeNull();
  });

  it('says what perf would say about the rest', () => {
    expect(perfFlagsProblem(['--bogus'], {}, ROOT)).toMatch(/^perf: Unknown option '--bogus'/);
    expect(perfFlagsProblem(['--scale', 'huge'], {}, ROOT)).toMatch(/--scale must be one of quick\|full, got 'huge'/);
    expect(perfFlagsProblem(['--processes', '0'], {}, ROOT)).toMatch(/--processes must be 1 \(.*\) or a whole number from 6 to 200/);
    expect(perfFlagsProblem(['--scenario', 'nope'], {}, ROOT)).toMatch(/^unknown scenario 'nope'. Known: mnist-loader \(01\)/);
  });
});
