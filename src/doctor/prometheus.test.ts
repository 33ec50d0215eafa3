import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDoctorChecks } from './doctor.js';
import { readDoctorReport } from './files.js';
import { CHECK_STATES, checkState, dcgmBusId, escapeLabelValue, formatValue, sizeOfFigure, toPrometheusText } from './prometheus.js';
import type { DoctorReport } from './schema.js';
import { checkOutput, OutputPathError } from '../results/output-guard.js';

const ROOT = join(import.meta.dirname, '../..');
/** A real report: doctor on the NVIDIA H200 of 2026-12-04 (../shared/gpu/h200-2026-12-04/doctor-1.json). */
const H200 = join(ROOT, 'fixtures/runs/h200-2026-12-04/doctor-1.json');
const BUILD = { version: '9.9.9', revision: 'abc123' };

/** `promtool check metrics` on `text`: its exit status and everything it printed (lint problems included). */
function promtoolCheck(text: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error('promtool is not installed (Debian package prometheus): run `npm run setup:system` (CI installs it)');
  }
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The sample lines of one family. */
const samples = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

let h200: DoctorReport;
let degraded: DoctorReport;
beforeAll(async () => {
  h200 = await readDoctorReport(H200);
  // A copy of a machine whose GPU link trained at Gen3 x8: judged from its files, nothing started.
  degraded = await runDoctorChecks(
    { backend: 'auto', requireBackend: null, expectGpu: false, quick: true, ldLibraryPath: null, sysfsRoot: join(ROOT, 'fixtures/sysfs/gen3-x8-degraded') },
    { check: () => undefined, note: () => undefined },
  );
});

describe('the parts', () => {
  it('writes PCI addresses as NVML and DCGM exporter do: 8-digit domain, upper case', () => {
    expect(dcgmBusId('0000:1b:00.0')).toBe('00000000:1B:00.0');
    expect(dcgmBusId('10000:e1:1f.7')).toBe('00010000:E1:1F.7');
  });
  it('escapes label values and spells non-finite values as the text format does', () => {
    expect(escapeLabelValue('a\\b "c"\nd')).toBe('a\\\\b \\"c\\"\\nd');
    expect([NaN, Infinity, -Infinity, 0.5].map(formatValue)).toEqual(['NaN', '+Inf', '-Inf', '0.5']);
  });
  it('reads sizes from figure ids and maps info to unknown', () => {
    expect(sizeOfFigure('upload.64kib', 'upload')).toBe(65536);
    expect(sizeOfFigure('host-copy.256mib', 'host-copy')).toBe(268435456);
    expect(sizeOfFigure('upload.fraction-of-limit', 'upload')).toBeNull();
    expect(['ok', 'info', 'warn', 'fail'].map((s) => checkState(s as 'ok'))).toEqual(['ok', 'unknown', 'warn', 'fail']);
  });
});

describe('the H200 report as a textfile', () => {
  it('passes promtool check metrics with no lint problem', () => {
    const text = toPrometheusText(h200, BUILD);
    expect(text.length).toBeGreaterThan(1000); // promtool passes an empty input too
    expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
  });

  it('has no sample timestamps, HELP and TYPE gauge before each family, and begins with build_info (the output guard knows it so)', () => {
    const text = toPrometheusText(h200, BUILD);
    expect(text.startsWith('# HELP gtp_doctor_build_info ')).toBe(true);
    for (const line of text
      .trimEnd()
      .split('\n')
      .filter((l) => !l.startsWith('#')))
      expect(line).toMatch(/^[a-z_]+(\{.*\})? [^ ]+$/);
    const types = text.split('\n').filter((l) => l.startsWith('# TYPE'));
    expect(types.every((l) => l.endsWith(' gauge'))).toBe(true);
    expect(samples(text, 'gtp_doctor_build_info')).toEqual([
      'gtp_doctor_build_info{version="9.9.9",revision="abc123",node_version="v20.20.2",report_schema_version="2",profile="webgpu-nvidia-h200-x64"} 1',
    ]);
  });

  it('labels the GPU as DCGM exporter does and gives its link, uploads by size and efficiency in base units', () => {
    const text = toPrometheusText(h200, BUILD);
    const gpu = 'gpu="0",pci_bus_id="00000000:00:06.0",model_name="10de:2335",profile="webgpu-nvidia-h200-x64"';
    const hop = `${gpu},hop="00000000:00:06.0",hop_index="0",card_internal="false"`;
    expect(samples(text, 'gtp_doctor_pcie_link_current_generation')).toEqual([`gtp_doctor_pcie_link_current_generation{${hop}} 5`]);
    expect(samples(text, 'gtp_doctor_pcie_link_capable_width')).toEqual([`gtp_doctor_pcie_link_capable_width{${hop}} 16`]);
    const link = h200.physical!.verdict.links[0]!.currentGBps! * 1e9;
    expect(samples(text, 'gtp_doctor_pcie_path_current_bytes_per_second')).toEqual([`gtp_doctor_pcie_path_current_bytes_per_second{${gpu}} ${link}`]);
    const uploads = h200.figures.filter((f) => /^upload\.\d+(kib|mib)$/.test(f.id));
    expect(uploads).toHaveLength(7);
    expect(samples(text, 'gtp_doctor_upload_bytes_per_second')).toEqual(
      uploads.map((f) => `gtp_doctor_upload_bytes_per_second{${gpu},size_bytes="${sizeOfFigure(f.id, 'upload')}"} ${f.value * 1e9}`),
    );
    const e = h200.physical!.efficiency!;
    const copy = h200.figures.find((f) => f.id === 'host-copy.256mib')!;
    expect(samples(text, 'gtp_doctor_host_copy_bytes_per_second')).toEqual([
      `gtp_doctor_host_copy_bytes_per_second{profile="webgpu-nvidia-h200-x64",size_bytes="268435456"} ${copy.value * 1e9}`,
    ]);
    expect(samples(text, 'gtp_doctor_upload_efficiency_ratio')).toEqual([
      `gtp_doctor_upload_efficiency_ratio{${gpu},against="pcie_link"} ${e.measuredGBps / e.limitGBps}`,
      `gtp_doctor_upload_efficiency_ratio{${gpu},against="host_copy"} ${e.measuredGBps / copy.value}`,
    ]);
  });

  it('gives each check a state set: four samples, 1 for the state it has', () => {
    const text = toPrometheusText(h200, BUILD);
    const lines = samples(text, 'gtp_doctor_check_state');
    expect(lines).toHaveLength(h200.checks.length * CHECK_STATES.length);
    for (const c of h200.checks) {
      const own = lines.filter((l) => l.includes(`{check="${c.id}",`));
      expect(own.map((l) => l.replace(/.*gtp_doctor_check_state="(\w+)"\} (\d)$/, '$1=$2'))).toEqual(
        CHECK_STATES.map((s) => `${s}=${s === checkState(c.status) ? 1 : 0}`),
      );
    }
  });
});

describe('a degraded copy as a textfile', () => {
  it('shows the GPU link current Gen3 x8 against capable Gen5 x16, the path 7.9 of 63.0 GB/s, and the link check failed', () => {
    const text = toPrometheusText(degraded, BUILD);
    expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
    const at = (name: string) => samples(text, name).find((l) => l.includes('pci_bus_id="00000000:1A:00.0"') && l.includes('hop_index="0"'))!;
    expect(at('gtp_doctor_pcie_link_current_generation')).toMatch(/ 3$/);
    expect(at('gtp_doctor_pcie_link_capable_generation')).toMatch(/ 5$/);
    expect(at('gtp_doctor_pcie_link_current_width')).toMatch(/ 8$/);
    expect(at('gtp_doctor_pcie_link_capable_width')).toMatch(/ 16$/);
    // 8 GT/s x 8 lanes x 128/130 / 8 bits (the kernel's PCIE_SPEED2MBS_ENC), against 32 GT/s x 16.
    const path = (which: string) => Number(samples(text, `gtp_doctor_pcie_path_${which}_bytes_per_second`)[0]!.split(' ')[1]);
    expect(path('current')).toBeCloseTo(((8 * 8 * 128) / 130 / 8) * 1e9, 0);
    expect(path('capable')).toBeCloseTo(((32 * 16 * 128) / 130 / 8) * 1e9, 0);
    expect(text).toContain('gtp_doctor_check_state{check="physical.link.0000-1a-00-0",gtp_doctor_check_state="fail"} 1');
    // Nothing was measured on a copy: no throughput families, no profile.
    expect(samples(text, 'gtp_doctor_upload_bytes_per_second')).toEqual([]);
    expect(text).not.toContain('profile=');
  });
});

describe('the output guard', () => {
  it("replaces an earlier textfile of doctor's, and refuses another file at the path unless --force", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gtp-prom-'));
    try {
      const path = join(dir, 'gtp.prom');
      const target = { path, kind: 'Prometheus textfile', flag: '--prometheus' } as const;
      await writeFile(path, toPrometheusText(h200, BUILD));
      await expect(checkOutput(target, { force: false })).resolves.toBeUndefined();
      await writeFile(path, '# HELP node_custom_thing Something else\n# TYPE node_custom_thing gauge\nnode_custom_thing 1\n');
      await expect(checkOutput(target, { force: false })).rejects.toThrow(OutputPathError);
      await expect(checkOutput(target, { force: false })).rejects.toThrow(/is another file, not a Prometheus textfile: refusing to overwrite it/);
      await expect(checkOutput(target, { force: true })).resolves.toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
