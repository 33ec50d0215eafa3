import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDoctorChecks } from './doctor.js';
import { readDoctorReport } from './files.js';
import { armDeadline, HEALTH_DEADLINE_SECONDS, healthVerdict, otherMachineReason, TOOL_CHECKS } from './health-check.js';
import type { Check, DoctorReport } from './schema.js';

const ROOT = join(import.meta.dirname, '../..');

let h200: DoctorReport;
let degraded: DoctorReport;
beforeAll(async () => {
  h200 = await readDoctorReport(join(ROOT, 'fixtures/runs/h200-2026-12-04/doctor-1.json'));
  degraded = await runDoctorChecks(
    { backend: 'auto', requireBackend: null, expectGpu: false, quick: true, ldLibraryPath: null, sysfsRoot: join(ROOT, 'fixtures/sysfs/gen3-x8-degraded') },
    { check: () => undefined, note: () => undefined },
  );
});

/** The report with `checks` added (a failure the real report does not have). */
const withChecks = (report: DoctorReport, ...checks: Check[]): DoctorReport => ({ ...report, checks: [...report.checks, ...checks] });
const fail = (id: string, reason: string): Check => ({ id, status: 'fail', reason });

describe('healthVerdict', () => {
  it('is silent and 0 on a healthy report (the H200: warnings and info do not count)', () => {
    expect(healthVerdict(h200)).toEqual({ exitCode: 0, line: null });
  });

  it('names the device, what failed and the figures in one ERROR line, exit 1, for a degraded link', () => {
    expect(healthVerdict(degraded)).toEqual({
      exitCode: 1,
      line: 'ERROR gtp doctor: 0000:1a:00.0 (10de:2330) PCIe link degraded (7.9 of 63.0 GB/s; 0000:1a:00.0 at Gen3 x8 8.0 GT/s, capable Gen5 x16 32.0 GT/s)',
    });
  });

  it('names another failed check by its id and reason on the measured device, and the others after it', () => {
    const report = withChecks(h200, fail('device.correct', 'the device computes the normalize kernel WRONG'), fail('figure.upload.64mib', 'below'));
    expect(healthVerdict(report)).toEqual({
      exitCode: 1,
      line: 'ERROR gtp doctor: 0000:00:06.0 (10de:2335) device.correct failed (the device computes the normalize kernel WRONG); also failed: figure.upload.64mib',
    });
  });

  it("is UNKNOWN, exit 2, never a degraded node, when only the tool's own setup failed (a backend failing then is its consequence)", () => {
    const report = withChecks(h200, fail('packages', '1 of 9 runtime packages missing: webgpu'), fail('backend', 'backend webgpu does not start'));
    expect(healthVerdict(report)).toEqual({
      exitCode: 2,
      line: 'UNKNOWN gtp doctor: 0000:00:06.0 (10de:2335) could not measure (packages failed: 1 of 9 runtime packages missing: webgpu; also failed: backend)',
    });
    expect([...TOOL_CHECKS]).toEqual(['node', 'packages', 'packages.tfjs-copies', 'backend.wasm', 'envelope']);
  });

  it('reads a backend that did not start as could-not-measure, unless --expect-gpu said a GPU must be there', () => {
    const noBackend = withChecks(h200, fail('backend', 'backend webgpu does not start: no adapter'));
    expect(healthVerdict(noBackend)).toEqual({
      exitCode: 2,
      line: 'UNKNOWN gtp doctor: 0000:00:06.0 (10de:2335) could not measure (backend failed: backend webgpu does not start: no adapter)',
    });
    const expected = { ...noBackend, settings: { ...noBackend.settings, expectGpu: true } };
    expect(healthVerdict(expected)).toEqual({
      exitCode: 1,
      line: 'ERROR gtp doctor: 0000:00:06.0 (10de:2335) backend failed (backend webgpu does not start: no adapter)',
    });
  });

  it('still fails a degraded link read from sysfs when the tool is broken too, and keeps the line one line', () => {
    const report = withChecks(degraded, fail('packages', 'missing\nsecond line'));
    const verdict = healthVerdict(report);
    expect(verdict.exitCode).toBe(1);
    expect(verdict.line).toMatch(/^ERROR gtp doctor: 0000:1a:00\.0 \(10de:2330\) PCIe link degraded \(7\.9 of 63\.0 GB\/s; .*\)$/);
    expect(healthVerdict(withChecks(h200, fail('device.correct', 'a\nb'))).line).not.toContain('\n');
  });
});

describe('the deadline', () => {
  it("is under Slurm's 60 s", () => {
    expect(HEALTH_DEADLINE_SECONDS).toBeLessThan(60);
  });
  it('fires once its time from process start has passed, and not once cancelled', async () => {
    let fired = 0;
    armDeadline(1, 0.98, () => fired++);
    const cancel = armDeadline(1, 0.98, () => fired++);
    cancel();
    await new Promise((done) => setTimeout(done, 100));
    expect(fired).toBe(1);
  });
});

describe('otherMachineReason: a --from report of another machine is not this node (issue 41, item 5)', () => {
  const of = (cpu: string, cores: number) =>
    ({ profile: { id: 'webgpu-nvidia-h200-x64', backend: 'webgpu', adapter: 'NVIDIA', isSoftware: false, cpu, cores } }) as unknown as DoctorReport;

  it("is null for this machine's own report, and for one with no profile (no backend started)", () => {
    expect(otherMachineReason(of('AMD EPYC', 2), { cpu: 'AMD EPYC', cores: 2 })).toBeNull();
    expect(otherMachineReason({ profile: null } as unknown as DoctorReport, { cpu: 'AMD EPYC', cores: 2 })).toBeNull();
  });

  it('names both machines and the flag when the CPU model or the core count differs', () => {
    expect(otherMachineReason(of('Intel(R) Xeon(R) Processor', 16), { cpu: 'AMD EPYC', cores: 2 })).toBe(
      'the --from report is of another machine: profile webgpu-nvidia-h200-x64 (Intel(R) Xeon(R) Processor, 16 cores), and this machine has AMD EPYC, 2 cores; pass --from-other-machine to judge it anyway',
    );
    expect(otherMachineReason(of('AMD EPYC', 16), { cpu: 'AMD EPYC', cores: 2 })).toMatch(/another machine/);
  });
});
