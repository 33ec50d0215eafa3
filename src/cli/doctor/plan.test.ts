import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../../test/support/temp-folder.js';
import { DoctorFileError, readDoctorReport } from '../../doctor/files.js';
import { MachineRootError } from '../../doctor/physical/sysfs.js';
import { BrowserSetupError } from '../../runner/browser-names.js';
import { OutputPathError } from '../../results/output-guard.js';
import { parseCommandLine } from '../args.js';
import { type DoctorArgs, planDoctor } from './plan.js';

const ROOT = join(import.meta.dirname, '../../..');
const H200_REPORT = join(ROOT, 'fixtures/runs/h200-2026-12-04/doctor-1.json');
const DEGRADED = join(ROOT, 'fixtures/sysfs/gen3-x8-degraded');
const tmp = tempFolder('gtp-doctor-plan-');

function doctorArgs(...argv: string[]): DoctorArgs {
  return envArgs({}, ...argv);
}

/** `doctor --browser chromium` and `argv`, parsed with `env` as the environment. */
function envArgs(env: NodeJS.ProcessEnv, ...argv: string[]): DoctorArgs {
  const args = parseCommandLine(['doctor', ...(argv.length > 0 ? argv : ['--browser', 'chromium'])], env);
  if (args.command !== 'doctor') throw new Error('not doctor');
  return args;
}

describe("doctor's plan phase", () => {
  it('names the outputs asked for and what the checks run with; a run on this machine starts the device', async () => {
    const [json, prom] = [tmp.at('report.json'), tmp.at('gtp.prom')];
    const plan = await planDoctor(doctorArgs('--quick', '--expect-gpu', '--json', json, '--prometheus', prom), false);
    expect(plan).toEqual({
      mode: 'check',
      startsDevice: true,
      checks: { backend: 'auto', requireBackend: null, expectGpu: true, quick: true, ldLibraryPath: null, sysfsRoot: null, browser: null },
      heading: 'doctor: is this machine set up for gpu-transfer-perf? (--backend auto, --quick, --expect-gpu)',
      json,
      prometheus: prom,
      color: false,
      browser: null,
    });
  });

  it('--browser: finds the browser and reads its version before anything starts; its timeout goes with it', async () => {
    const chromium = tmp.at('fake-chromium');
    await writeFile(chromium, '#!/bin/sh\necho "Chromium 156.0.8078.114 built on Debian"\n', { mode: 0o755 });
    const plan = await planDoctor(doctorArgs('--quick', '--browser', 'chromium', '--browser-path', chromium, '--browser-timeout', '90'), false);
    expect(plan).toMatchObject({
      mode: 'check',
      startsDevice: true,
      checks: { browser: 'chromium' },
      heading: 'doctor: is this machine set up for gpu-transfer-perf? (--backend auto, --quick, --browser chromium)',
      browser: { name: 'chromium', path: chromium, version: '156.0.8078.114', major: 156, timeoutS: 90 },
    });
  });

  it('--browser: no Chromium at --browser-path is refused with how to install one or name it (BrowserSetupError: exit 2)', async () => {
    const missing = planDoctor(doctorArgs('--browser', 'chromium', '--browser-path', tmp.at('no-chromium')));
    await expect(missing).rejects.toThrow(BrowserSetupError);
    await expect(missing).rejects.toThrow(/no-chromium \(--browser-path\) is not an executable file; install Chromium .* or name one with --browser-path/);
  });

  // Issue 51: a folder in GTP_BROWSER_PATH failed with "spawnSync ... EACCES" (a folder passes
  // X_OK), where a FIFO or a file without x said it in words; /bin/true's --version was quoted whole.
  it('--browser: a folder or FIFO at --browser-path or in GTP_BROWSER_PATH is not an executable file (one line)', async () => {
    const folder = tmp.at('chromium-folder');
    const fifo = tmp.at('chromium-fifo');
    await mkdir(folder, { recursive: true });
    execFileSync('mkfifo', [fifo]);
    for (const path of [folder, fifo]) {
      const named = { '--browser-path': doctorArgs('--browser', 'chromium', '--browser-path', path), GTP_BROWSER_PATH: envArgs({ GTP_BROWSER_PATH: path }) };
      for (const [from, args] of Object.entries(named)) {
        const refused = (await planDoctor(args).catch((e: unknown) => e)) as Error;
        expect(refused).toBeInstanceOf(BrowserSetupError);
        expect(refused.message).toBe(
          `--browser chromium: ${path} (${from}) is not an executable file; install Chromium (Debian: apt-get install chromium; npm run setup:system does) or name one with --browser-path PATH (or GTP_BROWSER_PATH)`,
        );
      }
    }
  });

  it('--browser: a --version that names no Chromium is quoted on one line, its first line cut after 200 characters', async () => {
    const refusal = async (path: string) =>
      ((await planDoctor(doctorArgs('--browser', 'chromium', '--browser-path', path)).catch((e: unknown) => e)) as Error).message;
    // /bin/true (GNU coreutils) prints seven lines for --version.
    const trueBinary = tmp.at('true');
    await writeFile(trueBinary, '#!/bin/sh\nprintf "true (GNU coreutils) 9.1\\nCopyright\\nLicense\\nfree software\\nNO WARRANTY\\n\\nWritten by\\n"\n', {
      mode: 0o755,
    });
    expect(await refusal(trueBinary)).toMatch(
      /^--browser chromium: \S+\/true --version printed 'true \(GNU coreutils\) 9\.1' \(the first of its 7 lines\), not a Chromium version; install Chromium [^\n]*$/,
    );
    const long = tmp.at('long-version');
    await writeFile(long, `#!/bin/sh\necho ${'v'.repeat(300)}\n`, { mode: 0o755 });
    expect(await refusal(long)).toContain(` --version printed '${'v'.repeat(200)}... (300 characters)', not a Chromium version; `);
  });

  it('--browser: refused when unsupported, with a mode that does not check this machine, and its flags without it (usage, exit 2)', () => {
    expect(() => doctorArgs('--browser', 'firefox')).toThrow(/doctor: --browser firefox: not supported; supported: chromium/);
    expect(() => doctorArgs('--browser', 'chromium', '--health-check')).toThrow(/--browser checks this machine's browser; run it without --health-check/);
    expect(() => doctorArgs('--browser', 'chromium', '--write-envelope', 'e.json')).toThrow(/without --write-envelope/);
    expect(() => doctorArgs('--browser', 'chromium', '--sysfs-root', DEGRADED)).toThrow(/without --sysfs-root/);
    expect(() => doctorArgs('--browser-path', '/usr/bin/chromium')).toThrow(/--browser-path goes with --browser chromium/);
    expect(() => doctorArgs('--browser-timeout', '5')).toThrow(/--browser-timeout goes with --browser chromium/);
    expect(() => doctorArgs('--browser', 'chromium', '--browser-timeout', '0')).toThrow(/--browser-timeout 0: expected whole seconds from 1 to 86400/);
  });

  it('judges a copy of /sys without starting the device', async () => {
    const plan = await planDoctor(doctorArgs('--sysfs-root', DEGRADED), true);
    expect(plan).toMatchObject({ mode: 'check', startsDevice: false, checks: { sysfsRoot: DEGRADED }, json: null, prometheus: null, color: true });
    expect(plan.mode === 'check' && plan.heading).toBe(`doctor: is this machine set up for gpu-transfer-perf? (--backend auto, --sysfs-root ${DEGRADED})`);
  });

  it('refuses an output it cannot write, and checks the outputs before the --sysfs-root (exit 2 either way)', async () => {
    await mkdir(tmp.at('a-folder'), { recursive: true });
    await expect(planDoctor(doctorArgs('--json', tmp.at('a-folder')))).rejects.toThrow(OutputPathError);
    await expect(planDoctor(doctorArgs('--json', tmp.at('a-folder'), '--sysfs-root', tmp.at('no-such')))).rejects.toThrow(OutputPathError);
    await expect(planDoctor(doctorArgs('--json', tmp.at('same.prom'), '--prometheus', tmp.at('same.prom')))).rejects.toThrow(
      /--prometheus .*same\.prom is also --json/,
    );
  });

  it('refuses a --sysfs-root that is not a copy of /sys', async () => {
    await expect(planDoctor(doctorArgs('--sysfs-root', tmp.at('no-such')))).rejects.toThrow(MachineRootError);
  });

  it('reads the --from report for --prometheus, and refuses one that is not a report', async () => {
    const prom = tmp.at('h200.prom');
    const plan = await planDoctor(doctorArgs('--from', H200_REPORT, '--prometheus', prom));
    expect(plan).toEqual({ mode: 'export', startsDevice: false, from: H200_REPORT, report: await readDoctorReport(H200_REPORT), prometheus: prom });
    const notReport = tmp.at('not-a-report.json');
    await writeFile(notReport, '{"hello": 1}');
    await expect(planDoctor(doctorArgs('--from', notReport, '--prometheus', prom))).rejects.toThrow(DoctorFileError);
  });

  it('makes a health check --quick; a --from report it cannot read is its verdict (UNKNOWN), not a refusal', async () => {
    const here = await planDoctor(doctorArgs('--health-check', '--deadline', '20'));
    expect(here).toMatchObject({ mode: 'health', startsDevice: true, checks: { quick: true }, from: null, fromOtherMachine: false, deadline: 20 });
    const h200 = await planDoctor(doctorArgs('--health-check', '--from', H200_REPORT, '--from-other-machine'));
    expect(h200).toMatchObject({
      mode: 'health',
      startsDevice: false,
      from: { path: H200_REPORT, report: { profile: { id: 'webgpu-nvidia-h200-x64' } } },
      fromOtherMachine: true,
    });
    const missing = tmp.at('missing.json');
    const unread = await planDoctor(doctorArgs('--health-check', '--from', missing));
    expect(unread).toMatchObject({ mode: 'health', from: { path: missing, unreadable: `DoctorFileError: ${missing}: cannot read it (ENOENT)` } });
  });

  it('leaves --write-envelope to the envelope-writer, which checks its output and reads its reports first', async () => {
    const out = tmp.at('envelope.json');
    const plan = await planDoctor(doctorArgs('--write-envelope', out, '--from', 'reports', '--backend', 'webgpu', '--processes', '3'));
    expect(plan).toEqual({ mode: 'envelope', startsDevice: false, out, from: ['reports'], processes: 3, quick: false, backend: 'webgpu', force: false });
  });
});
