/**
 * A doctor report as a node-exporter textfile (`gtp doctor --prometheus FILE`): the Prometheus
 * text exposition format 0.0.4 (prometheus.io/docs/instrumenting/exposition_formats), gauges
 * only, no sample timestamps (the textfile collector refuses them: node_exporter
 * collector/textfile.go "has a timestamp"), base units in the names (prometheus.io/docs/practices/naming:
 * `_bytes_per_second`, `_seconds`, `_ratio`).
 *
 * Labels join with NVIDIA DCGM exporter's series: `gpu`, `pci_bus_id` in NVML's form
 * (`00000000:1B:00.0`, as DCGM exporter labels its series: docs.nvidia.com/datacenter/dcgm
 * "DCGM Exporter Metrics"), `model_name` (snake_case, the Prometheus convention; DCGM spells its
 * own `modelName`, so joins use `pci_bus_id`, see docs/doctor-and-kit.md) and `profile`.
 */
import { pciIds } from './physical/judge.js';
import { generationOf } from './physical/pcie.js';
import { matchedBdf } from './physical/section.js';
import type { CheckStatus, DoctorReport, PhysicalSection } from './schema.js';

/** What wrote the textfile, for gtp_doctor_build_info. */
export interface BuildInfo {
  readonly version: string;
  /** The git commit of the harness, where known. */
  readonly revision: string | null;
}

/** The four states of a check's state set (OpenMetrics StateSet). */
export const CHECK_STATES = ['ok', 'warn', 'fail', 'unknown'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** A check's state: `info` is a fact doctor does not judge, so its state is unknown. */
export function checkState(status: CheckStatus): CheckState {
  return status === 'info' ? 'unknown' : status;
}

/** The sysfs address '0000:1b:00.0' as NVML and DCGM exporter print it: '00000000:1B:00.0' (nvmlPciInfo_t busId, 8-digit domain, upper case). */
export function dcgmBusId(bdf: string): string {
  const m = /^([0-9a-f]{4,8}):([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])$/i.exec(bdf);
  if (!m) return bdf;
  return `${m[1]!.padStart(8, '0')}:${m[2]}:${m[3]}.${m[4]}`.toUpperCase();
}

/** A label value escaped as the text format asks: backslash, double quote, line feed. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** A sample value in the text format (Go's ParseFloat spellings for the non-finite ones). */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

type Labels = Readonly<Record<string, string | null | undefined>>;

/** `{a="1",b="x"}`; labels with no value are left out (an empty label value is no label to Prometheus). */
function labelSet(labels: Labels): string {
  const parts = Object.entries(labels)
    .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '')
    .map(([name, value]) => `${name}="${escapeLabelValue(value)}"`);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
}

interface Family {
  readonly name: string;
  readonly help: string;
  readonly samples: { labels: Labels; value: number }[];
}

/** The labels that identify a device, as DCGM exporter's series do, and the run's profile. */
type DeviceLabels = { gpu: string; pci_bus_id: string; model_name: string; profile: string | null };

/**
 * Each display/accelerator function's labels: `gpu` is its position among them in PCI address
 * order (NVML numbers GPUs in that order, so it is nvidia-smi's index on a machine of one vendor;
 * join on pci_bus_id, which is exact); `model_name` its PCI vendor:device id (sysfs has no model
 * name; DCGM's modelName comes over in the join).
 */
function deviceLabels(physical: PhysicalSection, profile: string | null): Map<string, DeviceLabels> {
  const sorted = [...physical.devices].sort((a, b) => a.bdf.localeCompare(b.bdf));
  return new Map(sorted.map((d, i) => [d.bdf, { gpu: String(i), pci_bus_id: dcgmBusId(d.bdf), model_name: pciIds(d), profile }]));
}

/** Bytes of an upload figure's id ('upload.64kib' -> 65536), null for other ids. */
export function sizeOfFigure(id: string, kind: string): number | null {
  const m = new RegExp(`^${kind}\\.(\\d+)(kib|mib)$`).exec(id);
  if (!m) return null;
  return Number(m[1]) * (m[2] === 'kib' ? 1024 : 1024 * 1024);
}

/** The labels of the device the measured figures came from: the matched adapter, or the profile only. */
function measuredDevice(physical: PhysicalSection | undefined, devices: Map<string, DeviceLabels>, profile: string | null): Labels {
  const only = matchedBdf(physical);
  return (only ? devices.get(only) : undefined) ?? { profile };
}

/** The PCIe families: each hop's generation and width, current and capable, and each path's minimum rate. */
function linkFamilies(physical: PhysicalSection, devices: Map<string, DeviceLabels>): Family[] {
  const gen = { current: [] as Family['samples'], capable: [] as Family['samples'] };
  const width = { current: [] as Family['samples'], capable: [] as Family['samples'] };
  const underLoad = new Map((physical.underLoad ?? []).map((u) => [u.bdf, u.reading]));
  for (const device of physical.devices) {
    const labels = devices.get(device.bdf)!;
    device.hops.forEach((hop, index) => {
      const at = { ...labels, hop: dcgmBusId(hop.bdf), hop_index: String(index), card_internal: String(hop.internal) };
      // Under load where it was read again: an idle GPU may train its link down (doctor's own verdict does the same).
      const current = underLoad.get(hop.bdf) ?? hop.current;
      for (const [reading, which] of [
        [current, 'current'],
        [hop.max, 'capable'],
      ] as const) {
        const g = reading.gts === null ? null : generationOf(reading.gts);
        if (g !== null) gen[which].push({ labels: at, value: g });
        if (reading.width !== null) width[which].push({ labels: at, value: reading.width });
      }
    });
  }
  const rate = { current: [] as Family['samples'], capable: [] as Family['samples'] };
  for (const link of physical.verdict.links) {
    const labels = devices.get(link.bdf);
    if (!labels) continue;
    if (link.currentGBps !== null) rate.current.push({ labels, value: link.currentGBps * 1e9 });
    if (link.capableGBps !== null) rate.capable.push({ labels, value: link.capableGBps * 1e9 });
  }
  const hopHelp = 'hop_index 0 is the device, then each bridge up to the root port; card_internal hops are left out of the path minimum';
  return [
    {
      name: 'gtp_doctor_pcie_link_current_generation',
      help: `PCIe generation each hop's link runs at (read under load where doctor measured; ${hopHelp})`,
      samples: gen.current,
    },
    { name: 'gtp_doctor_pcie_link_capable_generation', help: `Highest PCIe generation each hop's link is capable of (${hopHelp})`, samples: gen.capable },
    { name: 'gtp_doctor_pcie_link_current_width', help: `PCIe lanes each hop's link runs at (${hopHelp})`, samples: width.current },
    { name: 'gtp_doctor_pcie_link_capable_width', help: `PCIe lanes each hop's link is capable of (${hopHelp})`, samples: width.capable },
    {
      name: 'gtp_doctor_pcie_path_current_bytes_per_second',
      help: 'One-direction rate of the slowest link on the path as trained, after line encoding',
      samples: rate.current,
    },
    { name: 'gtp_doctor_pcie_path_capable_bytes_per_second', help: 'One-direction rate of the path as capable, after line encoding', samples: rate.capable },
  ];
}

/** Upload and host-copy throughput by size, and the upload's efficiency against the link and the host copy. */
function throughputFamilies(report: DoctorReport, measured: Labels): Family[] {
  const bySize = (kind: string, labels: Labels): Family['samples'] =>
    report.figures.flatMap((f) => {
      const size = sizeOfFigure(f.id, kind);
      return size === null || f.unit !== 'GB/s' ? [] : [{ labels: { ...labels, size_bytes: String(size) }, value: f.value * 1e9 }];
    });
  // The host copy is the host's memory, not the device's: the profile only.
  const hostCopy = bySize('host-copy', { profile: report.profile?.id ?? null });
  const efficiency: Family['samples'] = [];
  const e = report.physical?.efficiency ?? null;
  if (e) {
    const link = report.physical?.verdict.linkLimitGBps ?? null;
    const copy = report.figures.find((f) => sizeOfFigure(f.id, 'host-copy') !== null);
    if (link !== null && link > 0) efficiency.push({ labels: { ...measured, against: 'pcie_link' }, value: e.measuredGBps / link });
    if (copy && copy.value > 0) efficiency.push({ labels: { ...measured, against: 'host_copy' }, value: e.measuredGBps / copy.value });
  }
  return [
    {
      name: 'gtp_doctor_upload_bytes_per_second',
      help: 'Host-to-device upload throughput by transfer size (synced, median of repeats)',
      samples: bySize('upload', measured),
    },
    {
      name: 'gtp_doctor_host_copy_bytes_per_second',
      help: "The host's memory copy throughput (all allowed CPUs) at the largest upload size",
      samples: hostCopy,
    },
    {
      name: 'gtp_doctor_upload_efficiency_ratio',
      help: 'Upload throughput on its plateau over a limit: the PCIe path as trained (against="pcie_link") or the host memory copy (against="host_copy")',
      samples: efficiency,
    },
  ];
}

/** One state set per check: a sample per state, 1 for the current one (OpenMetrics StateSet: the state label is named after the family). */
function checkFamily(report: DoctorReport, profile: string | null): Family {
  const name = 'gtp_doctor_check_state';
  const rank: Record<CheckState, number> = { ok: 0, unknown: 1, warn: 2, fail: 3 };
  const states = new Map<string, CheckState>();
  // One series per id: a repeated id keeps its worst state (duplicate series are a scrape error).
  for (const c of report.checks) {
    const s = checkState(c.status);
    const was = states.get(c.id);
    if (was === undefined || rank[s] > rank[was]) states.set(c.id, s);
  }
  const samples = [...states].flatMap(([check, state]) => CHECK_STATES.map((s) => ({ labels: { check, profile, [name]: s }, value: s === state ? 1 : 0 })));
  return { name, help: "Each doctor check's state (ok, warn, fail, unknown: info or not judged), 1 for the current state", samples };
}

/** Every family of the report, in the order the textfile lists them. */
export function doctorFamilies(report: DoctorReport, build: BuildInfo): Family[] {
  const profile = report.profile?.id ?? null;
  const devices = report.physical ? deviceLabels(report.physical, profile) : new Map<string, DeviceLabels>();
  const measured = measuredDevice(report.physical, devices, profile);
  return [
    {
      name: 'gtp_doctor_build_info',
      help: 'The gpu-transfer-perf version that wrote this file, the Node.js and report schema behind the figures, and the profile; always 1',
      samples: [
        {
          // profile too: one textfile per profile (a node doctored on two backends) must not repeat a series, or the collector fails.
          labels: { version: build.version, revision: build.revision, node_version: report.node, report_schema_version: String(report.schemaVersion), profile },
          value: 1,
        },
      ],
    },
    {
      name: 'gtp_doctor_last_run_timestamp_seconds',
      help: 'When the doctor report was made (Unix time)',
      samples: [{ labels: { profile }, value: Date.parse(report.createdAt) / 1000 }],
    },
    { name: 'gtp_doctor_run_duration_seconds', help: 'How long the doctor run took', samples: [{ labels: { profile }, value: report.durationSeconds }] },
    checkFamily(report, profile),
    ...(report.physical ? linkFamilies(report.physical, devices) : []),
    ...throughputFamilies(report, measured),
  ];
}

/** The report in the text exposition format: HELP and TYPE for each family with samples, no timestamps, a final newline. */
export function toPrometheusText(report: DoctorReport, build: BuildInfo): string {
  const lines: string[] = [];
  for (const family of doctorFamilies(report, build)) {
    if (family.samples.length === 0) continue;
    lines.push(`# HELP ${family.name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${family.name} gauge`);
    for (const s of family.samples) lines.push(`${family.name}${labelSet(s.labels)} ${formatValue(s.value)}`);
  }
  return `${lines.join('\n')}\n`;
}
