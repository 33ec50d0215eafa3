import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDoctorReport } from '../../doctor/files.js';
import type { Check, DoctorReport, Envelope } from '../../doctor/schema.js';
import { judgeDoctor } from './judge.js';

const ROOT = join(import.meta.dirname, '../../..');
let h200: DoctorReport;
beforeAll(async () => {
  h200 = await readDoctorReport(join(ROOT, 'fixtures/runs/h200-2026-12-04/doctor-1.json'));
});

const fail = (id: string, reason: string): Check => ({ id, status: 'fail', reason });
/** The report with a failed check added, and the exit code doctor gives it (src/doctor/doctor.ts). */
const failing = (report: DoctorReport, check: Check): DoctorReport => ({ ...report, checks: [...report.checks, check], exitCode: 1 });
const H200_HOST = { cpu: 'Intel(R) Xeon(R) Processor', cores: 16 };

describe("doctor's judge phase", () => {
  it("gives the checks' own exit code: 0 all ok, 1 a failed check, 2 a sysfs file that could not be parsed", () => {
    const measured = (report: DoctorReport) => ({ kind: 'report' as const, report, here: null });
    expect(judgeDoctor('check', measured(h200))).toMatchObject({ exitCode: 0, line: null });
    expect(judgeDoctor('check', measured(failing(h200, fail('figure.upload.64mib', 'below its envelope'))))).toMatchObject({ exitCode: 1, line: null });
    expect(judgeDoctor('check', measured({ ...h200, exitCode: 2 }))).toMatchObject({ exitCode: 2 });
  });

  it('passes a report exported and an envelope made (0); reports that cannot make one are bad input (2)', () => {
    expect(judgeDoctor('export', { kind: 'report', report: failing(h200, fail('device.correct', 'wrong')), here: null }).exitCode).toBe(0);
    const envelope = { profile: 'p' } as unknown as Envelope;
    expect(judgeDoctor('envelope', { kind: 'envelope', envelope, path: 'e.json' })).toEqual({
      kind: 'envelope',
      envelope,
      path: 'e.json',
      exitCode: 0,
      line: null,
    });
    expect(judgeDoctor('envelope', { kind: 'refused', message: 'no reports' })).toEqual({ kind: 'refused', message: 'no reports', exitCode: 2, line: null });
  });

  describe('--health-check', () => {
    it('is silent and 0 on a healthy report of this machine; one ERROR line and 1 on a failed device check', () => {
      expect(judgeDoctor('health', { kind: 'report', report: h200, here: H200_HOST })).toMatchObject({ kind: 'report', exitCode: 0, line: null });
      const wrong = failing(h200, fail('device.correct', 'the device computes the normalize kernel WRONG'));
      expect(judgeDoctor('health', { kind: 'report', report: wrong, here: null })).toMatchObject({
        exitCode: 1,
        line: 'ERROR gtp doctor: 0000:00:06.0 (10de:2335) device.correct failed (the device computes the normalize kernel WRONG)',
      });
    });

    it("a tool's own failure is UNKNOWN (2), never a degraded node", () => {
      const judged = judgeDoctor('health', { kind: 'report', report: failing(h200, fail('packages', 'vitest missing')), here: null });
      expect(judged).toMatchObject({ exitCode: 2, line: 'UNKNOWN gtp doctor: 0000:00:06.0 (10de:2335) could not measure (packages failed: vitest missing)' });
    });

    it('a report of another machine is UNKNOWN (2), naming both, and is not written', () => {
      const judged = judgeDoctor('health', { kind: 'report', report: h200, here: { cpu: 'AMD EPYC 7763 64-Core Processor', cores: 2 } });
      expect(judged.kind).toBe('unknown');
      expect(judged.exitCode).toBe(2);
      expect(judged.line).toBe(
        'UNKNOWN gtp doctor: webgpu-nvidia-h200-x64 could not measure (the --from report is of another machine: profile webgpu-nvidia-h200-x64 (Intel(R) Xeon(R) Processor, 16 cores), and this machine has AMD EPYC 7763 64-Core Processor, 2 cores; pass --from-other-machine to judge it anyway)',
      );
    });

    it('could not measure: UNKNOWN (2) on this node, with why', () => {
      expect(judgeDoctor('health', { kind: 'unknown', why: 'Error: the adapter was lost' })).toEqual({
        kind: 'unknown',
        why: 'Error: the adapter was lost',
        exitCode: 2,
        line: 'UNKNOWN gtp doctor: this node could not measure (Error: the adapter was lost)',
      });
    });
  });
});
