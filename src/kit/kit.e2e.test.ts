// The run kit as a bare GPU machine sees it: built, unpacked into an empty folder with no
// node_modules around it, started with a PATH holding node and nothing else (no npm, npx, git,
// not even dirname), run on this machine's device to a run record that the repository accepts.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDoctorReport } from '../doctor/files.js';
import { readRunRecord } from '../results/storage.js';
import { buildKit, type KitBuild } from './build.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const ROOT = resolve(import.meta.dirname, '../..');
const sh = promisify(execFile);

const temp = tempFolder('gtp-kit-test-');
let kit: KitBuild;
let kitDir: string;
let bin: string;
let run: { code: number; output: string; seconds: number };

/** Runs `./run` in the unpacked kit with nothing but `bin` on PATH. */
function runKit(args: string[]): Promise<{ code: number; output: string; seconds: number }> {
  const started = performance.now();
  // A clean environment, as on a fresh machine; CI's choice of backend is kept.
  const env: NodeJS.ProcessEnv = { PATH: bin, HOME: temp.path };
  if (process.env.PERF_REQUIRE_BACKEND) env.PERF_REQUIRE_BACKEND = process.env.PERF_REQUIRE_BACKEND;
  return new Promise((done) => {
    const child = spawn('./run', args, { cwd: kitDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (code) => done({ code: code ?? -1, output, seconds: (performance.now() - started) / 1000 }));
  });
}

beforeAll(async () => {
  kit = await buildKit(ROOT, temp.at('dist'));
  const unpacked = temp.at('machine');
  await mkdir(unpacked);
  await sh('tar', ['-xzf', kit.archive, '-C', unpacked]);
  kitDir = join(unpacked, kit.name);
  bin = temp.at('bin');
  await mkdir(bin);
  await symlink(process.execPath, join(bin, 'node'));
  run = await runKit(['--doctor-runs', '1', '--scenario', '1', '--scenario', '4']);
}, 300_000);

describe('the run kit', () => {
  it('is one archive of the harness and its runtime modules, without dev-only packages', async () => {
    expect(kit.archive).toMatch(/gpu-transfer-perf-kit-\d+\.\d+\.\d+-linux-x64\.tar\.gz$/);
    const modules = await readdir(join(kitDir, 'node_modules'));
    expect(modules).toEqual(expect.arrayContaining(['webgpu', 'vitest', 'tsx', '@tensorflow']));
    for (const devOnly of ['typescript', '@biomejs', '@types', 'playwright-core']) expect(modules).not.toContain(devOnly);
    expect(await readdir(join(kitDir, 'node_modules/webgpu/dist'))).toEqual([`${process.platform}-${process.arch}`]);
    expect(existsSync(join(kitDir, 'node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm'))).toBe(true);
    for (const f of ['run', 'KIT.md', 'KIT.json', 'fixtures', 'baselines/webgpu-lavapipe-x64.json', 'baselines/webgpu-lavapipe-x64.doctor.json']) {
      expect(existsSync(join(kitDir, f)), f).toBe(true);
    }
    // Well below the 750 MB of a development node_modules.
    expect(kit.archiveBytes).toBeLessThan(100e6);
  });

  it('has no npm on the PATH it runs with', async () => {
    // dash's `command -v` exits 127 for a command it cannot find, bash's 1: either way nothing is printed.
    await expect(
      sh('/bin/sh', ['-c', 'command -v npm || command -v npx || command -v git || command -v dirname'], { env: { PATH: bin } }),
    ).rejects.toMatchObject({
      stdout: '',
    });
    expect((await sh('/bin/sh', ['-c', 'command -v node'], { env: { PATH: bin } })).stdout.trim()).toBe(join(bin, 'node'));
  });

  it('runs doctor and the selected scenarios to a valid run record, with no scenario errors', async () => {
    expect(run.output, run.output).toMatch(/== doctor 1\/1/);
    const results = join(kitDir, 'results');
    const [stamp] = await readdir(results);
    const record = await readRunRecord(join(results, stamp!, 'run.json'));
    expect(record.errors).toEqual([]);
    expect(record.selection).toEqual(['perf/01-mnist-loader.spec.ts', 'perf/04-device-normalize.spec.ts']);
    expect(record.metrics.find((m) => m.id === 'mnist-transfer.upload-bytes.device-normalize')?.value).toBe(50_176);
    // The kit is not a git checkout; its runs name the commit KIT.json says it was built from.
    const kit = JSON.parse(await readFile(join(kitDir, 'KIT.json'), 'utf8')) as { git: { commit: string | null; dirty: boolean | null } };
    expect(record.git).toEqual(kit.git);
    const doctor = await readDoctorReport(join(results, stamp!, 'doctor-1.json'));
    expect(doctor.profile?.id).toBe(record.profile.id);
    expect(doctor.checks.filter((c) => c.status === 'fail' && !c.id.startsWith('figure.'))).toEqual([]);
    // The physical verdict comes back with every reading behind it: a GPU machine's kit run is judged from it.
    expect(doctor.physical).toMatchObject({ source: '/sys', isCopy: false, verdict: { match: expect.any(String) } });
    expect(doctor.checks.some((c) => c.id === 'physical.efficiency')).toBe(true);
    if (existsSync(join(results, stamp!, 'run.html'))) expect(run.output).toMatch(/HTML report: results\/\S+\/run\.html/);
    // 0, or 1 when an exact metric differs from the committed baseline: the run itself completed.
    expect([0, 1]).toContain(run.code);
  });

  it('writes a run record the repository accepts as a baseline (perf:baseline)', async () => {
    const [stamp] = await readdir(join(kitDir, 'results'));
    const kitDirty = (JSON.parse(await readFile(join(kitDir, 'KIT.json'), 'utf8')) as { git: { dirty: boolean | null } }).git.dirty === true;
    const target = temp.at('accepted.json');
    const tsx = join(ROOT, 'node_modules/.bin/tsx');
    await sh(
      tsx,
      [
        join(ROOT, 'src/cli/main.ts'),
        'baseline',
        join(kitDir, 'results', stamp!, 'run.json'),
        '--allow-partial',
        // A kit built from uncommitted work says so in KIT.json, and its runs are refused without this.
        ...(kitDirty ? ['--allow-dirty'] : []),
        '--baseline',
        target,
        '--history',
        temp.at('history'),
      ],
      {
        cwd: ROOT,
      },
    );
    expect(existsSync(target)).toBe(true);
  }, 60_000);
});
