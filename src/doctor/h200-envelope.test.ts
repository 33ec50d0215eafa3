// The committed envelope of webgpu-nvidia-h200-x64 (baselines/webgpu-nvidia-h200-x64.doctor.json),
// made with `gtp doctor --write-envelope ... --from` from the H200 kit run's three doctor reports
// (fixtures/runs/h200-2026-12-04/doctor-1..3.json): it is what those reports derive, and each of
// them is judged within it.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deriveEnvelope, envelopePathFor, judgeFigure, readEnvelope } from './envelope.js';
import { fromReports } from './envelope-writer.js';
import { readDoctorReport } from './files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES = ['doctor-1.json', 'doctor-2.json', 'doctor-3.json'];
const reports = () => Promise.all(FILES.map((f) => readDoctorReport(join(ROOT, 'fixtures/runs/h200-2026-12-04', f))));

describe('the H200 doctor envelope', () => {
  it('is what the three reports derive, margin 0.5, its note naming them and when they were made', async () => {
    const envelope = (await readEnvelope(join(ROOT, envelopePathFor('webgpu-nvidia-h200-x64'))))!;
    const all = await reports();
    const again = deriveEnvelope(all, { margin: 0.5, machine: envelope.derivation.machine, git: envelope.derivation.git, note: envelope.derivation.note });
    expect(envelope.figures).toEqual(again.figures);
    expect(envelope.derivation).toMatchObject({
      processes: 3,
      margin: 0.5,
      quick: false,
      machine: 'Intel(R) Xeon(R) Processor x16, linux 6.18.44-fc-v1252-gpu x64, NVIDIA: 580.159.04 580.159.4.0',
    });
    expect(envelope.derivation.note).toContain(fromReports(FILES, all));
    expect(fromReports(FILES, all)).toBe(
      'reports given with --from: doctor-1.json, doctor-2.json, doctor-3.json, made 2026-12-04T17:46:16.016Z to 2026-12-04T17:47:38.262Z',
    );
    // Every figure doctor measures there has a range, the host copy and the fraction of the link included.
    expect(Object.keys(envelope.figures)).toEqual(
      expect.arrayContaining(['upload.256mib', 'host-copy.256mib', 'upload.fraction-of-limit', 'speedup.mnist-batch']),
    );
  });

  it('judges each of the three reports within it', async () => {
    const envelope = (await readEnvelope(join(ROOT, envelopePathFor('webgpu-nvidia-h200-x64'))))!;
    for (const report of await reports()) {
      const checks = report.figures.map((f) => judgeFigure(f, envelope, { isSoftware: false, busy: false, remake: 'remake' }));
      expect(checks.filter((c) => c.status !== 'ok')).toEqual([]);
      expect(checks).toHaveLength(19);
    }
  });
});
