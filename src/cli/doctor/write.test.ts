import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { tempFolder } from '../../../test/support/temp-folder.js';
import { readDoctorReport } from '../../doctor/files.js';
import type { DoctorReport, Envelope } from '../../doctor/schema.js';
import type { DoctorJudged } from './judge.js';
import type { DoctorChecksPlan, DoctorPlan } from './plan.js';
import { writeDoctor } from './write.js';

const ROOT = join(import.meta.dirname, '../../..');
const H200_REPORT = join(ROOT, 'fixtures/runs/h200-2026-12-04/doctor-1.json');
const tmp = tempFolder('gtp-doctor-write-');
let h200: DoctorReport;
beforeAll(async () => {
  h200 = await readDoctorReport(H200_REPORT);
});

const CHECKS: DoctorChecksPlan = { backend: 'auto', requireBackend: null, expectGpu: false, quick: true, ldLibraryPath: null, sysfsRoot: null, browser: null };
const judgedReport = (report: DoctorReport, exitCode: number, line: string | null = null): DoctorJudged => ({
  kind: 'report',
  report,
  here: null,
  exitCode,
  line,
});

/** The console's lines (stdout, stderr) while `work` runs. */
async function lines(work: () => Promise<number>): Promise<{ code: number; out: string[]; err: string[] }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await work();
    const text = (spy: typeof log) => spy.mock.calls.map((c) => c.join(' '));
    return { code, out: text(log), err: text(error) };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe("doctor's write phase", () => {
  it('writes the report (--json) and the textfile (--prometheus), says each, and gives the judged exit code', async () => {
    const [json, prom] = [tmp.at('check', 'report.json'), tmp.at('check', 'gtp.prom')];
    const plan: DoctorPlan = { mode: 'check', startsDevice: true, checks: CHECKS, heading: 'doctor', json, prometheus: prom, color: false, browser: null };
    const { code, out } = await lines(() => writeDoctor(plan, judgedReport(h200, 0)));
    expect(code).toBe(0);
    expect(await readDoctorReport(json)).toEqual(h200);
    expect(await readFile(prom, 'utf8')).toMatch(/^gtp_doctor_build_info\{.*version="\d+\.\d+\.\d+/m);
    expect(out.slice(-2)).toEqual([`report: ${json}`, `prometheus textfile: ${prom}`]);
  });

  it("exports a --from report's textfile and names the report", async () => {
    const prom = tmp.at('export', 'h200.prom');
    const plan: DoctorPlan = { mode: 'export', startsDevice: false, from: H200_REPORT, report: h200, prometheus: prom };
    const { code, out } = await lines(() => writeDoctor(plan, judgedReport(h200, 0)));
    expect(code).toBe(0);
    expect(await readFile(prom, 'utf8')).toContain('gtp_doctor_check_state');
    expect(out[0]).toMatch(new RegExp(`\\(from ${H200_REPORT}\\)$`));
    expect(out[1]).toBe(`prometheus textfile: ${prom}`);
  });

  describe('--health-check', () => {
    const health = (json: string | null, prometheus: string | null): DoctorPlan => ({
      mode: 'health',
      startsDevice: false,
      checks: CHECKS,
      from: null,
      fromOtherMachine: false,
      deadline: 50,
      json,
      prometheus,
    });

    it('writes the evidence, then prints the verdict line alone', async () => {
      const [json, prom] = [tmp.at('health', 'report.json'), tmp.at('health', 'gtp.prom')];
      const line = 'ERROR gtp doctor: 0000:00:06.0 (10de:2335) device.correct failed (wrong)';
      const { code, out } = await lines(() => writeDoctor(health(json, prom), judgedReport(h200, 1, line)));
      expect({ code, out }).toEqual({ code: 1, out: [line] });
      expect(await readDoctorReport(json)).toEqual(h200);
      expect(existsSync(prom)).toBe(true);
    });

    it('is silent when healthy', async () => {
      expect(await lines(() => writeDoctor(health(null, null), judgedReport(h200, 0)))).toEqual({ code: 0, out: [], err: [] });
    });

    it('an output it cannot write is UNKNOWN (2), one line', async () => {
      const file = tmp.at('a-file');
      await writeFile(file, 'not a folder');
      const { code, out } = await lines(() => writeDoctor(health(join(file, 'report.json'), null), judgedReport(h200, 0)));
      expect(code).toBe(2);
      expect(out).toHaveLength(1);
      expect(out[0]).toMatch(/^UNKNOWN gtp doctor: this node could not measure \(FileWriteError: .*a-file\/report\.json/);
    });

    it('writes nothing for an UNKNOWN verdict (another machine, could not measure)', async () => {
      const json = tmp.at('unknown', 'report.json');
      const line = 'UNKNOWN gtp doctor: this node could not measure (why)';
      const { code, out } = await lines(() => writeDoctor(health(json, null), { kind: 'unknown', why: 'why', exitCode: 2, line }));
      expect({ code, out }).toEqual({ code: 2, out: [line] });
      expect(existsSync(json)).toBe(false);
    });
  });

  it('writes the envelope made where it was checked, and refuses reports that could not make one on stderr (2)', async () => {
    const out = tmp.at('envelope', 'p.doctor.json');
    const plan: DoctorPlan = { mode: 'envelope', startsDevice: false, out, from: [], processes: 8, quick: false, backend: null, force: false };
    const envelope = { kind: 'gpu-transfer-perf doctor envelope', profile: 'webgpu-nvidia-h200-x64' } as unknown as Envelope;
    const written = await lines(() => writeDoctor(plan, { kind: 'envelope', envelope, path: out, exitCode: 0, line: null }));
    expect(written).toEqual({ code: 0, out: [`envelope of webgpu-nvidia-h200-x64: ${out} (commit it beside the profile's baseline)`], err: [] });
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(envelope);
    const refused = await lines(() => writeDoctor(plan, { kind: 'refused', message: '--from x: no such file or folder', exitCode: 2, line: null }));
    expect(refused).toEqual({ code: 2, out: [], err: ['error: --from x: no such file or folder'] });
  });
});
