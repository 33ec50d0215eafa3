// `npm run doctor` as a user runs it: a child process of the real CLI (the doctor starts its own
// backend, which must not disturb the one this test process shares with the perf specs). CI's
// runners differ in CPU model (AMD EPYC, Intel Xeon), and a software adapter's profile id names
// it: every doctor here runs with the CPU read as the committed envelope's own (a crafted
// /proc/cpuinfo in a mount namespace, test/support/other-cpu.ts), so the same envelope judges it
// on any runner; one case reads it as another CPU, where that envelope must not be applied.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readEnvelope } from '../doctor/envelope.js';
import { readDoctorReport } from '../doctor/files.js';
import { cpuPart, legacyIdOf } from '../backend/fingerprint.js';
import { envelopeMachineAt } from '../results/profile-files.js';
import type { DoctorReport } from '../doctor/schema.js';
import { cli, ROOT } from '../../test/support/cli.js';
import { asOtherCpu, OTHER_CPU_LAVAPIPE_ID, OTHER_CPU_MODEL, type OtherCpu } from '../../test/support/other-cpu.js';
import { tempFolder } from '../../test/support/temp-folder.js';

/** The committed envelope of CI's device, named by the id of before the CPU was part of it. */
const ENVELOPE = join('baselines', 'webgpu-lavapipe-x64.doctor.json');
const ENVELOPE_PROFILE = 'webgpu-lavapipe-x64';
/** A CPU the envelope was not made on (one of the models hosted runners have). */
const XEON = OTHER_CPU_MODEL;

/** The CPU the envelope records (its derivation.machine, read as the envelope lookup reads it). */
const ENVELOPE_CPU = envelopeMachineAt(join(ROOT, ENVELOPE))?.cpu ?? { model: 'the envelope records no CPU', cores: 0 };

const temp = tempFolder('gtp-doctor-');
/** The CPU read as the envelope's, and as the Xeon: each a command prefix, or why this machine cannot. */
let asEnvelopeCpu: OtherCpu;
let asXeon: OtherCpu;

/** The doctor as CI runs it (this process's environment, CI's backend requirement included), with the CPU read as `as` does where it can. */
const doctor = (args: string[], cwd = ROOT, as: OtherCpu = asEnvelopeCpu) =>
  cli(['doctor', ...args], cwd, { env: process.env, timeoutMs: 90_000, wrap: as.wrap ?? undefined });

let first: { code: number; stdout: string };
let report: DoctorReport;
beforeAll(async () => {
  asEnvelopeCpu = await asOtherCpu(temp.path, 'cpuinfo-envelope', ENVELOPE_CPU.model, ENVELOPE_CPU.cores);
  asXeon = await asOtherCpu(temp.path, 'cpuinfo-xeon', XEON, ENVELOPE_CPU.cores);
  first = await doctor(['--quick', '--json', temp.at('doctor.json')]);
  report = await readDoctorReport(temp.at('doctor.json'));
}, 120_000);

/** Why the committed envelope's device is not this machine's (a GPU, another architecture), or null: then the envelope cases do not apply here. */
function notEnvelopeDevice(id: string): string | null {
  const kind = legacyIdOf(id)?.legacyId;
  return kind === ENVELOPE_PROFILE ? null : `this machine's device (${id}) is not the committed envelope's kind (${ENVELOPE_PROFILE})`;
}

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

  it("reads this machine's PCI tree and, on a software adapter, reports the host memory copy as the limit and the efficiency against it", (context) => {
    const physical = report.physical!;
    expect(physical).toMatchObject({ source: '/sys', isCopy: false });
    expect(report.checks.some((c) => c.id === 'physical.match')).toBe(true);
    if (report.profile?.isSoftware !== true) context.skip(`the adapter here (${report.profile?.id}) is not a software one: no host-copy limit to check`);
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

  it(`judges the CI profile against its committed envelope, with the CPU read as the one it was made on (${ENVELOPE_CPU.model}, ${ENVELOPE_CPU.cores} cores)`, async (context) => {
    const id = report.profile!.id;
    const other = notEnvelopeDevice(id);
    if (other) context.skip(other);
    // The envelope is named by the id of before the CPU was part of it; on the CPU it was made on it serves the new id.
    const cpu = cpuPart(ENVELOPE_CPU.model, ENVELOPE_CPU.cores);
    if (asEnvelopeCpu.unavailable && legacyIdOf(id)?.cpu !== cpu)
      context.skip(`the CPU cannot be read as the envelope's here (${asEnvelopeCpu.unavailable}), and this one is not it (${id})`);
    expect(report.profile).toMatchObject({ id: `webgpu-lavapipe-${cpu}-x64`, cpu: ENVELOPE_CPU.model, cores: ENVELOPE_CPU.cores });
    expect(report.envelope).toEqual({ path: ENVELOPE, found: true });
    expect(first.stdout).toMatch(/^baselines\/webgpu-lavapipe-x64\.doctor\.json is named by the profile id of before the CPU was part of it .* it serves /m);
    // Every figure the envelope has a range for is judged against it; the host load beside them.
    const ranges = (await readEnvelope(join(ROOT, ENVELOPE)))!.figures;
    const judged = report.figures.filter((f) => f.id in ranges);
    expect(judged.length).toBeGreaterThan(5);
    for (const f of judged)
      expect(report.checks.find((c) => c.id === `figure.${f.id}`)?.reason, f.id).toMatch(/(within|below|above) the range of webgpu-lavapipe-x64 /);
    expect(report.checks.some((c) => c.id === 'host.load')).toBe(true);
    expect(first.stdout).toMatch(/, judged against baselines\/webgpu-lavapipe-x64\.doctor\.json; exit [01]$/m);
  });

  it(`names the envelope made on another CPU and does not apply it, with the CPU read as ${XEON}: exit and health as with no envelope`, async (context) => {
    const other = notEnvelopeDevice(report.profile!.id);
    if (other) context.skip(other);
    if (asXeon.unavailable) context.skip(asXeon.unavailable);
    const json = temp.at('xeon.json');
    const { code, stdout } = await doctor(['--quick', '--json', json], ROOT, asXeon);
    const xeon = await readDoctorReport(json);
    const id = OTHER_CPU_LAVAPIPE_ID;
    expect(xeon.profile).toMatchObject({ id, cpu: XEON, cores: ENVELOPE_CPU.cores });
    expect(xeon.envelope).toEqual({ path: join('baselines', `${id}.doctor.json`), found: false });
    // One line names the envelope, the CPU it was made on, this one, why not, and the command that makes one here.
    const named = stdout.split('\n').filter((line) => line.includes(ENVELOPE));
    expect(named).toHaveLength(1);
    const make = String.raw`(npm run doctor --|npx gtp doctor) --write-envelope baselines/${id}\.doctor\.json`;
    expect(named[0]).toMatch(
      new RegExp(
        String.raw`^\[info\] envelope baselines/webgpu-lavapipe-x64\.doctor\.json \(webgpu-lavapipe-x64\) is this device's made on AMD EPYC, 2 cores; this machine is Intel\(R\) Xeon\(R\) Platinum 8370C CPU @ 2\.80GHz, 2 cores \(${id}\): not applied, since the CPU does this device's work: its rates are the host's own, never judged across CPUs.*Make this machine's .*\`${make}\` \(doctor in 8 processes\), or from kit runs \`${make} --from results/<time>/\`$`,
      ),
    );
    // Nothing judged: every figure shown as info, no range named; nothing failed, exit 0 as with no envelope.
    const figures = xeon.checks.filter((c) => c.id.startsWith('figure.'));
    expect(figures.length).toBe(xeon.figures.length);
    for (const c of figures) expect(c, c.id).toMatchObject({ status: 'info', reason: expect.not.stringMatching(/range of/) });
    expect(xeon.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/, no envelope; exit 0$/m);
    // As a node health check the same report is healthy (silent, 0): unjudged is not degraded. It
    // records the crafted CPU, not this machine's: judged only with --from-other-machine (issue 41).
    const health = await cli(['doctor', '--health-check', '--from', json, '--from-other-machine']);
    expect(health).toMatchObject({ code: 0, stdout: '' });
  }, 120_000);

  it('reports a software adapter as a warning, and as a failure (exit 1) with --expect-gpu', async (context) => {
    if (report.profile?.isSoftware !== true) context.skip(`the adapter here (${report.profile?.id}) is not a software one`);
    expect(report.checks.find((c) => c.id === 'webgpu.software')?.status).toBe('warn');
    const strict = await doctor(['--quick', '--expect-gpu']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/\[FAIL\] SOFTWARE adapter.*--expect-gpu/);
    expect(strict.stdout).toMatch(/Failed:\n {2}webgpu.software: /);
  }, 120_000);

  it('reports a corrupt envelope as a failed check naming the file, and still measures', async () => {
    // The same CPU reading as the first run's, so this run's profile is report.profile.
    expect(report.profile).not.toBeNull();
    const id = report.profile!.id;
    const cwd = temp.at('corrupt');
    await mkdir(join(cwd, 'baselines'), { recursive: true });
    await writeFile(join(cwd, 'baselines', `${id}.doctor.json`), '{"schemaVersion": 1, "kind": "gpu-tr');
    const result = await doctor(['--quick'], cwd);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\[FAIL\] baselines\/\S+\.doctor\.json: not valid JSON.*remake it/);
    expect(result.stdout).toMatch(/\[info\] host->device 64 KiB: /);
    expect(result.stderr).not.toMatch(/ at /);
  }, 120_000);

  it('refuses a --json that cannot be written, before measuring anything (exit 2)', async () => {
    const result = await doctor(['--json', temp.path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--json .* is a directory; name a file/);
    expect(result.stdout).not.toMatch(/measuring/);
  });
});
