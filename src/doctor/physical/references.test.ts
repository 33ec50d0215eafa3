// The three upload references from real doctor reports: the H200's (2026-12-04, a kit run's
// doctor-1..3.json, fixtures/runs/h200-2026-12-04/) and lavapipe's (this CI machine, fixtures/runs/lavapipe-2026-12-04/).
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readRunRecord } from '../../results/storage.js';
import { bindingOf, groupReferences, referencesClause, STAGING_BOUND_FRACTION, type UploadReferences } from '../../results/upload-references.js';
import { checkStagingPath } from '../checks.js';
import { readDoctorReport } from '../files.js';
import { reportReferences, withDoctorReferences, withReferencesBeside } from './references.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

const RUNS = fileURLToPath(new URL('../../../fixtures/runs/', import.meta.url));
const H200 = join(RUNS, 'h200-2026-12-04');
const H200_DOCTORS = ['doctor-1.json', 'doctor-2.json', 'doctor-3.json'];
const GEN5_X16 = (32 * 16 * 128) / 130 / 8;

const h200 = async () => reportReferences(await Promise.all(H200_DOCTORS.map((f) => readDoctorReport(join(H200, f)))), H200_DOCTORS);

describe('the references of doctor reports', () => {
  it('H200: the upload plateau (256 MiB), the host copy and the Gen5 x16 link, medians of the three reports; the staging path binds', async () => {
    const doctor = (await h200())!;
    expect(doctor.hardware).toBe(true);
    expect(doctor.backend).toBe('webgpu');
    expect(doctor.uploadLabel).toBe('host->device 256 MiB');
    const { api, hostCopy, link } = doctor.references;
    // The medians of the three reports' figures (2.10, 2.18, 2.23 GB/s; 25.3, 27.2, 28.1 GB/s).
    expect(api).toMatchObject({ kind: 'api-upload', name: "WebGPU's upload rate", source: 'measured' });
    expect(api!.gbps).toBeCloseTo(2.18, 2);
    expect(hostCopy!.gbps).toBeCloseTo(27.2, 1);
    expect(link).toEqual({
      kind: 'pcie-link',
      gbps: GEN5_X16,
      name: 'the Gen5 x16 link',
      source: 'computed',
      from: 'doctor-1.json, doctor-2.json, doctor-3.json, median of 3',
    });
    expect(bindingOf(doctor.references)).toEqual({ binds: 'api-staging', machine: hostCopy });
  });

  it('H200: doctor warns that the API staging path binds, names the cause and points at the docs table', async () => {
    const doctor = (await h200())!;
    const check = checkStagingPath({ ...doctor, uploadLabel: doctor.uploadLabel! });
    expect(check).toEqual({ id: 'upload.staging-path', status: 'warn', reason: expect.any(String) });
    expect(check!.reason).toMatch(
      /^host->device 2\.18 GB\/s \(host->device 256 MiB\) is 0\.035 of the Gen5 x16 link \(63\.0 GB\/s\) and 0\.080 of the host memory copy \(27\.2 GB\/s\): under 0\.1 of the host memory copy, the lower machine bound\. Cause: the API's staging path \(WebGPU's writeBuffer copies into Dawn's staging memory/,
    );
    expect(check!.reason).toMatch(
      /PyTorch 17\.7 GB\/s from pageable memory, 50\.6 GB\/s pinned\): docs\/figures\.md, "What else moves data on the same hardware"$/,
    );
  });

  it('each report alone warns too: every H200 doctor run reached under 0.04 of the link', async () => {
    for (const f of H200_DOCTORS) {
      const doctor = reportReferences([await readDoctorReport(join(H200, f))], [f])!;
      expect(checkStagingPath({ ...doctor, uploadLabel: doctor.uploadLabel! })?.status).toBe('warn');
    }
  });

  it('lavapipe (a software adapter): no staging-path check; its upload is a CPU copy, set against the host copy by the efficiency line', async () => {
    const report = await readDoctorReport(join(RUNS, 'lavapipe-2026-12-04', 'doctor-1.json'));
    expect(report.profile?.isSoftware).toBe(true);
    const doctor = reportReferences([report], ['doctor-1.json'])!;
    expect(doctor.hardware).toBe(false);
    expect(doctor.references.link).toBeNull();
    expect(doctor.references.hostCopy).not.toBeNull();
    expect(checkStagingPath({ ...doctor, uploadLabel: doctor.uploadLabel! })).toBeNull();
  });

  it('a hardware upload at or above the fraction: ok, the lower machine bound binds', () => {
    const ref = (kind: 'api-upload' | 'host-copy' | 'pcie-link', gbps: number, name: string) => ({ kind, gbps, name, source: 'measured' as const, from: null });
    // PyTorch's pageable copy on the H200, as if an API reached it: 17.7 of min(63.0, 27.2).
    const refs: UploadReferences = {
      api: ref('api-upload', 17.7, "WebGPU's upload rate"),
      hostCopy: ref('host-copy', 27.2, 'the host memory copy'),
      link: ref('pcie-link', 63, 'the Gen5 x16 link'),
    };
    expect(checkStagingPath({ hardware: true, references: refs, uploadLabel: 'host->device 256 MiB', backend: 'webgpu' })).toEqual({
      id: 'upload.staging-path',
      status: 'ok',
      reason:
        'host->device 17.7 GB/s (host->device 256 MiB) is 0.28 of the Gen5 x16 link (63.0 GB/s) and 0.65 of the host memory copy (27.2 GB/s): at least 0.1 of the host memory copy, the lower machine bound, which binds',
    });
    // Just under the fraction of the lower bound warns; the link binds when it is the lower one.
    const justUnder = { ...refs, api: ref('api-upload', STAGING_BOUND_FRACTION * 27.2 * 0.999, "WebGPU's upload rate") };
    expect(bindingOf(justUnder)?.binds).toBe('api-staging');
    const slowLink = { ...refs, link: ref('pcie-link', 7.9, 'the Gen3 x8 link') };
    expect(bindingOf({ ...slowLink, api: ref('api-upload', 6, "WebGPU's upload rate") })?.binds).toBe('pcie-link');
    // No machine bound, or no API rate: nothing to say.
    expect(checkStagingPath({ hardware: true, references: { ...refs, hostCopy: null, link: null }, uploadLabel: '', backend: 'webgpu' })).toBeNull();
  });
});

describe('the H200 quick run rebuilt as a report with the doctor reports beside it', () => {
  const temp = tempFolder('gtp-beside-');

  it('adds the host copy and the link to every stage group with a computed limit, each naming where it came from', async () => {
    const record = await readRunRecord(join(H200, 'run.json'));
    expect(groupReferences(record.metrics, 'mnist-transfer', 'webgpu')).toEqual({
      // Made before the reference metrics: the API's rate read from the limit's detail.
      api: { kind: 'api-upload', gbps: 2.17, name: "WebGPU's upload rate", source: 'measured', from: null },
      hostCopy: null,
      link: null,
    });
    const { record: shown, notes } = await withReferencesBeside(join(H200, 'run.json'), record);
    expect(notes).toEqual(["the machine's upload references (host memory copy, PCIe link) from doctor-1.json, doctor-2.json, doctor-3.json beside the record"]);
    const added = shown.metrics.filter((m) => m.labels?.table === 'upload-references');
    // mnist-transfer, coco, two dtype shapes, five sweep batches: two references each; training's limit is measured.
    expect(added.map((m) => m.id)).toEqual(
      ['mnist-transfer', 'coco', 'dtypes.64x1x28x28', 'dtypes.32x3x224x224', 'sweep.b32', 'sweep.b64', 'sweep.b128', 'sweep.b256', 'sweep.b512'].flatMap(
        (g) => [`${g}.upload-reference.host-copy`, `${g}.upload-reference.pcie-link`],
      ),
    );
    expect(added.find((m) => m.id === 'coco.upload-reference.pcie-link')).toMatchObject({
      scenario: 'coco',
      value: GEN5_X16,
      unit: 'GB/s',
      source: 'computed',
      detail:
        'computed from sysfs (speed x width x encoding) in doctor: doctor-1.json, doctor-2.json, doctor-3.json, median of 3, beside this run record; not measured by this run',
    });
    expect(referencesClause(groupReferences(shown.metrics, 'mnist-transfer', 'webgpu'))).toBe(
      "that rate (2.17 GB/s) is 0.034 of the Gen5 x16 link (63.0 GB/s, computed from sysfs) and 0.080 of the host memory copy (27.2 GB/s) (from doctor-1.json, doctor-2.json, doctor-3.json, median of 3): the API's staging path binds, not this pipeline (under 0.1 of the host memory copy)",
    );
    // Added once: references already in the record are kept.
    expect(withDoctorReferences(shown, (await h200())!).metrics).toHaveLength(shown.metrics.length);
  });

  it("leaves the record as it is without doctor reports of its profile beside it, and names a broken one and another machine's", async () => {
    await copyFile(join(H200, 'run.json'), temp.at('run.json'));
    await copyFile(join(RUNS, 'lavapipe-2026-12-04', 'doctor-1.json'), temp.at('doctor-1.json'));
    await writeFile(temp.at('doctor-2.json'), '{"kind": "not a report"');
    const record = await readRunRecord(temp.at('run.json'));
    const beside = await withReferencesBeside(temp.at('run.json'), record);
    expect(beside.record).toBe(record);
    // Another machine's report was ignored without a word (issue 41, item 7): now one line names its machine and says it was not used.
    expect(beside.notes).toEqual([
      expect.stringMatching(/^left out doctor-2\.json beside the record: /),
      "left out doctor-1.json beside the record: a doctor report of another machine (webgpu-lavapipe-intel-xeon-2c-x64; this run's is webgpu-nvidia-h200-x64), not used for its upload references",
    ]);
  });
});
