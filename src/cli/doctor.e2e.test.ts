// `npm run doctor` as a user runs it: a child process of the real CLI (the doctor starts its own
// backend, which must not disturb the one this test process shares with the perf specs).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDoctorReport } from '../doctor/files.js';
import { legacyIdOf } from '../backend/fingerprint.js';
import type { DoctorReport } from '../doctor/schema.js';
import { cli, ROOT } from '../../test/support/cli.js';

/** The doctor as CI runs it: this process's environment, CI's backend requirement included. */
const doctor = (args: string[], cwd = ROOT) => cli(['doctor', ...args], cwd, { env: process.env, timeoutMs: 90_000 });

let dir: string;
let first: { code: number; stdout: string };
let report: DoctorReport;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gtp-doctor-'));
  first = await doctor(['--quick', '--json', join(dir, 'doctor.json')]);
  report = await readDoctorReport(join(dir, 'doctor.json'));
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm run doctor', () => {
  it('passes every setup check here, measures every figure, and exits as its report says', () => {
    const setupFailures = report.checks.filter((c) => c.status === 'fail' && !c.id.startsWith('figure.'));
    expect(setupFailures).toEqual([]);
    expect(first.code).toBe(report.exitCode);
    expect(report.figures.map((f) => f.id)).toEqual(
      expect.arrayContaining(['upload.64kib', 'upload.64mib', 'readback.1mib', 'normalize.fraction-of-copy', 'speedup.mnist-batch']),
    );
    // Each figure is judged (or shown) on its own line, and the run ends with a summary line.
    for (const f of report.figures) expect(report.checks.some((c) => c.id === `figure.${f.id}`)).toBe(true);
    expect(first.stdout).toMatch(/doctor on \S+: \d+ failed, \d+ warnings, \d+ ok in [\d.]+ s/);
  });

  it("reads this machine's PCI tree and, on a software adapter, reports the host memory copy as the limit and the efficiency against it", () => {
    const physical = report.physical!;
    expect(physical).toMatchObject({ source: '/sys', isCopy: false });
    expect(report.checks.some((c) => c.id === 'physical.match')).toBe(true);
    if (report.profile?.isSoftware !== true) return;
    expect(physical.verdict.match).toBe('host');
    const copy = report.figures.find((f) => f.id === 'host-copy.64mib')!;
    expect(copy.detail).toMatch(/^TypedArray\.set \(memcpy\) between two host buffers, \d+ threads? \(one per allowed CPU\)/);
    expect(physical.efficiency).toMatchObject({ limit: 'host-memory-copy', limitGBps: copy.value });
    expect(physical.efficiency!.fraction).toBeCloseTo(physical.efficiency!.measuredGBps / copy.value, 10);
    expect(first.stdout).toMatch(
      /\[info\] efficiency \d+\.\d\d = host->device [\d.]+ GB\/s \(host->device 64 MiB, .*\) \/ the host memory copy bandwidth, [\d.]+ GB\/s \(measured/,
    );
  });

  it('judges a copy of another machine with --sysfs-root: a link trained at Gen3 x8 fails (exit 1), nothing measured', async () => {
    const result = await doctor(['--sysfs-root', join('fixtures', 'sysfs', 'gen3-x8-degraded')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\[FAIL\] 0000:1a:00\.0 \(10de:2330, display\): DEGRADED link: Gen3 x8 .* 7\.9 of 63\.0 GB\/s/);
    expect(result.stdout).not.toMatch(/measuring/);
    expect(result.stdout).toMatch(/doctor: 1 failed, 0 warnings, 2 ok in [\d.]+ s; exit 1/);
  });

  it('judges the CI profile against its committed envelope', () => {
    // The committed envelope is named by the id of before the CPU was part of it; on the machine it was made on it serves the new id.
    if (!report.profile || legacyIdOf(report.profile.id)?.legacyId !== 'webgpu-lavapipe-x64') return;
    expect(report.envelope).toEqual({ path: join('baselines', 'webgpu-lavapipe-x64.doctor.json'), found: true });
    expect(first.stdout).toMatch(/(within|below|above) the range of webgpu-lavapipe-/);
  });

  it('reports a software adapter as a warning, and as a failure (exit 1) with --expect-gpu', async () => {
    if (report.profile?.isSoftware !== true) return;
    expect(report.checks.find((c) => c.id === 'webgpu.software')?.status).toBe('warn');
    const strict = await doctor(['--quick', '--expect-gpu']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/\[FAIL\] SOFTWARE adapter.*--expect-gpu/);
    expect(strict.stdout).toMatch(/Failed:\n {2}webgpu.software: /);
  }, 120_000);

  it('reports a corrupt envelope as a failed check naming the file, and still measures', async () => {
    if (!report.profile) return;
    const cwd = join(dir, 'corrupt');
    await mkdir(join(cwd, 'baselines'), { recursive: true });
    await writeFile(join(cwd, 'baselines', `${report.profile.id}.doctor.json`), '{"schemaVersion": 1, "kind": "gpu-tr');
    const result = await doctor(['--quick'], cwd);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\[FAIL\] baselines\/\S+\.doctor\.json: not valid JSON.*remake it/);
    expect(result.stdout).toMatch(/\[info\] host->device 64 KiB: /);
    expect(result.stderr).not.toMatch(/ at /);
  }, 120_000);

  it('refuses a --json that cannot be written, before measuring anything (exit 2)', async () => {
    const result = await doctor(['--json', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--json .* is a directory; name a file/);
    expect(result.stdout).not.toMatch(/measuring/);
  });
});
