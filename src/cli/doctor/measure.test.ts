import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { tempFolder } from '../../../test/support/temp-folder.js';
import { hostCpuModel } from '../../backend/hardware-profile.js';
import { readDoctorReport } from '../../doctor/files.js';
import type { DoctorReport } from '../../doctor/schema.js';
import { measureDoctor } from './measure.js';
import type { DoctorChecksPlan, DoctorPlan } from './plan.js';

const ROOT = join(import.meta.dirname, '../../..');
const H200_RUN = join(ROOT, 'fixtures/runs/h200-2026-12-04');
const H200_REPORT = join(H200_RUN, 'doctor-1.json');
const tmp = tempFolder('gtp-doctor-measure-');
let h200: DoctorReport;
beforeAll(async () => {
  h200 = await readDoctorReport(H200_REPORT);
});

const CHECKS: DoctorChecksPlan = { backend: 'auto', requireBackend: null, expectGpu: false, quick: true, ldLibraryPath: null, sysfsRoot: null, browser: null };
const health = (from: Extract<DoctorPlan, { mode: 'health' }>['from'], fromOtherMachine: boolean): DoctorPlan => ({
  mode: 'health',
  startsDevice: false,
  checks: CHECKS,
  from,
  fromOtherMachine,
  deadline: 50,
  json: null,
  prometheus: null,
});

/** Runs `work` with the console's lines collected. */
async function quietly<T>(work: () => Promise<T>): Promise<{ value: T; out: string[] }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const value = await work();
    return { value, out: log.mock.calls.map((c) => c.join(' ')) };
  } finally {
    log.mockRestore();
  }
}

describe("doctor's measure phase", () => {
  it('makes the envelope from --from reports, and writes nothing', async () => {
    const out = tmp.at('envelope', 'h200.doctor.json');
    await mkdir(tmp.at('envelope'));
    const plan: DoctorPlan = { mode: 'envelope', startsDevice: false, out, from: [H200_RUN], processes: 8, quick: false, backend: null, force: false };
    const { value } = await quietly(() => measureDoctor(plan));
    expect(value.kind === 'envelope' && { path: value.path, profile: value.envelope.profile }).toEqual({ path: out, profile: 'webgpu-nvidia-h200-x64' });
    expect(existsSync(out)).toBe(false);
  });

  it('reports that cannot make an envelope are refused as a value (exit 2 later), not thrown', async () => {
    const empty = tmp.at('no-reports');
    await mkdir(empty);
    const plan: DoctorPlan = {
      mode: 'envelope',
      startsDevice: false,
      out: tmp.at('e.json'),
      from: [empty],
      processes: 8,
      quick: false,
      backend: null,
      force: false,
    };
    expect(await measureDoctor(plan)).toEqual({ kind: 'refused', message: `--from ${empty}: no doctor*.json reports in the folder` });
  });

  it('a --from report for --prometheus is measured as it is', async () => {
    const plan: DoctorPlan = { mode: 'export', startsDevice: false, from: H200_REPORT, report: h200, prometheus: 'x.prom' };
    expect(await measureDoctor(plan)).toEqual({ kind: 'report', report: h200, here: null });
  });

  it('--health-check --from: this machine read to judge the report against, unless --from-other-machine; an unreadable one is UNKNOWN', async () => {
    expect(await measureDoctor(health({ path: H200_REPORT, report: h200 }, false))).toEqual({
      kind: 'report',
      report: h200,
      here: { cpu: hostCpuModel(), cores: Math.max(1, availableParallelism()) },
    });
    expect(await measureDoctor(health({ path: H200_REPORT, report: h200 }, true))).toEqual({ kind: 'report', report: h200, here: null });
    expect(await measureDoctor(health({ path: 'r.json', unreadable: 'DoctorFileError: r.json: cannot read it (ENOENT)' }, false))).toEqual({
      kind: 'unknown',
      why: 'DoctorFileError: r.json: cannot read it (ENOENT)',
    });
  });

  it('runs the checks on a copy of /sys with each line on the console as it is found, the heading first', async () => {
    const sysfsRoot = join(ROOT, 'fixtures/sysfs/gen3-x8-degraded');
    const plan: DoctorPlan = {
      mode: 'check',
      startsDevice: false,
      checks: { ...CHECKS, sysfsRoot },
      heading: 'doctor: heading',
      json: null,
      prometheus: null,
      color: false,
      browser: null,
    };
    const { value, out } = await quietly(() => measureDoctor(plan));
    if (value.kind !== 'report') throw new Error(`expected a report, got ${value.kind}`);
    expect(value.report.exitCode).toBe(1);
    expect(value.report.settings.sysfsRoot).toBe(sysfsRoot);
    expect(out[0]).toBe('doctor: heading');
    expect(out).toContain('[FAIL] ' + value.report.checks.find((c) => c.status === 'fail')!.reason);
  });
});
