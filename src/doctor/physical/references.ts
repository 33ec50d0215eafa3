import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { median } from '../../measure/statistics.js';
import type { RunRecord } from '../../results/schema.js';
import { apiName, referenceMetric, type UploadReference, type UploadReferences } from '../../results/upload-references.js';
import { DoctorFileError, readDoctorReport } from '../files.js';
import type { DoctorReport, Figure } from '../schema.js';
import { uploadPlateau } from './efficiency.js';
import { generationOf, type LinkReading } from './pcie.js';

/**
 * The three upload references (results/upload-references.ts) as doctor knows them: the upload
 * curve's plateau, the host memory copy and the PCIe path's limit, from a live run's figures and
 * verdict or from reports written earlier (a kit run's doctor-*.json beside its run.json).
 */

/** 'the Gen5 x16 link' from a reading; 'the PCIe link' when its generation or width is unknown. */
export function linkName(reading: LinkReading | null): string {
  const gen = reading?.gts == null ? null : generationOf(reading.gts);
  return gen && reading?.width ? `the Gen${gen} x${reading.width} link` : 'the PCIe link';
}

type ReportedHop = NonNullable<DoctorReport['physical']>['devices'][number]['hops'][number];

/** The hop that limits device `bdf`'s path, and its link as read (under load where it was), or null. */
export function bottleneckOf(physical: NonNullable<DoctorReport['physical']>, bdf: string): { hop: ReportedHop | null; reading: LinkReading | null } | null {
  const link = physical.verdict.links.find((l) => l.bdf === bdf);
  if (!link?.bottleneck) return null;
  const hop = physical.devices.find((d) => d.bdf === bdf)?.hops.find((h) => h.bdf === link.bottleneck) ?? null;
  return { hop, reading: physical.underLoad?.find((u) => u.bdf === link.bottleneck)?.reading ?? hop?.current ?? null };
}

/** A physical section's link reading at the adapter's bottleneck (read under load where it was), or null. */
export function bottleneckReading(physical: DoctorReport['physical']): LinkReading | null {
  const adapter = physical?.verdict.candidates[0];
  return physical && adapter ? (bottleneckOf(physical, adapter)?.reading ?? null) : null;
}

/** What doctor's figures and verdict give: the references, and whether the adapter was hardware. */
export interface DoctorReferences {
  readonly references: UploadReferences;
  /** The upload figure the API's rate is ('host->device 256 MiB'), or null. */
  readonly uploadLabel: string | null;
  readonly hardware: boolean;
  readonly backend: string;
}

/** The references of one live doctor run: its figures, the link limit of its verdict and the bottleneck's reading. */
export function liveReferences(
  figures: readonly Figure[],
  link: { readonly gbps: number | null; readonly reading: LinkReading | null },
  backend: string,
  hardware: boolean,
): DoctorReferences {
  const plateau = uploadPlateau(figures);
  const host = figures.find((f) => f.id.startsWith('host-copy.'));
  return {
    references: {
      api: plateau ? { kind: 'api-upload', gbps: plateau.gbps, name: `${apiName(backend)} upload rate`, source: 'measured', from: null } : null,
      hostCopy: host ? { kind: 'host-copy', gbps: host.value, name: 'the host memory copy', source: 'measured', from: null } : null,
      link: link.gbps === null ? null : { kind: 'pcie-link', gbps: link.gbps, name: linkName(link.reading), source: 'computed', from: null },
    },
    uploadLabel: plateau?.figure.label ?? null,
    hardware,
    backend,
  };
}

/**
 * The references of doctor reports written earlier (`files` names them, for the `from` of each
 * reference): each figure's median over the reports, the link of the first report that has one.
 * Null without a report that measured (a copy of /sys measures nothing).
 */
export function reportReferences(reports: readonly DoctorReport[], files: readonly string[]): DoctorReferences | null {
  const measured = reports.filter((r) => r.profile !== null && r.figures.length > 0);
  const first = measured[0];
  if (!first?.profile) return null;
  const from = `${files.join(', ')}${files.length > 1 ? `, median of ${files.length}` : ''}`;
  const med = (pick: (r: DoctorReport) => Figure | null | undefined): number | null => {
    const values = measured.flatMap((r) => {
      const f = pick(r);
      return f ? [f.value] : [];
    });
    return values.length > 0 ? median(values) : null;
  };
  const plateauOf = (r: DoctorReport) => uploadPlateau(r.figures)?.figure;
  const upload = med(plateauOf);
  const host = med((r) => r.figures.find((f) => f.id.startsWith('host-copy.')));
  const withLink = measured.find((r) => r.physical?.verdict.linkLimitGBps != null);
  const backend = first.profile.backend;
  const ref = (kind: UploadReference['kind'], gbps: number | null, name: string, source: UploadReference['source']): UploadReference | null =>
    gbps === null ? null : { kind, gbps, name, source, from };
  return {
    references: {
      api: ref('api-upload', upload, `${apiName(backend)} upload rate`, 'measured'),
      hostCopy: ref('host-copy', host, 'the host memory copy', 'measured'),
      link: withLink ? ref('pcie-link', withLink.physical!.verdict.linkLimitGBps!, linkName(bottleneckReading(withLink.physical)), 'computed') : null,
    },
    uploadLabel: plateauOf(first)?.label ?? null,
    hardware: first.profile.isSoftware === false && (backend === 'webgpu' || backend === 'tensorflow'),
    backend,
  };
}

/**
 * A run record with the machine's references (host copy, PCIe link) from doctor reports beside
 * it, added to each stage group with a computed limit that has none of its own: in memory, for
 * the report (`gtp report` of a kit run's results/<time>/), never written back. Each added
 * metric says where it came from.
 */
export function withDoctorReferences(record: RunRecord, doctor: DoctorReferences): RunRecord {
  const ids = new Set(record.metrics.map((m) => m.id));
  const limits = record.metrics.filter((m) => m.labels?.table === 'stages' && m.labels.stage === 'limit' && m.source === 'computed');
  const seen = new Set<string>();
  const added = limits.flatMap((limit) => {
    const group = limit.labels!.group!;
    if (seen.has(group)) return [];
    seen.add(group);
    return [doctor.references.hostCopy, doctor.references.link].flatMap((ref) => {
      if (!ref) return [];
      const metric = referenceMetric(
        group,
        ref,
        `${ref.source === 'computed' ? 'computed from sysfs (speed x width x encoding) in' : 'measured by'} doctor: ${ref.from}, beside this run record; not measured by this run`,
      );
      return ids.has(metric.id) ? [] : [{ ...metric, scenario: limit.scenario }];
    });
  });
  return added.length > 0 ? { ...record, metrics: [...record.metrics, ...added] } : record;
}

/**
 * `gtp report` of a kit run's results/<time>/run.json: the doctor reports beside it
 * (doctor*.json, as the kit writes them) give the record the machine's references, unless the
 * run recorded its own. Unreadable reports are left out and named in the notes; no report: the
 * record as it is.
 */
export async function withReferencesBeside(runPath: string, record: RunRecord): Promise<{ record: RunRecord; notes: string[] }> {
  const dir = dirname(runPath);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((f) => /^doctor.*\.json$/.test(f)).sort();
  const notes: string[] = [];
  const read: { name: string; report: DoctorReport }[] = [];
  for (const name of names) {
    try {
      read.push({ name, report: await readDoctorReport(join(dir, name)) });
    } catch (error) {
      if (!(error instanceof DoctorFileError)) throw error;
      notes.push(`left out ${name} beside the record: ${error.message}`);
    }
  }
  // Only reports of the record's own profile describe its machine; another machine's is named, not used (issue 41, item 7).
  const same = read.filter((r) => r.report.profile?.id === record.profile.id);
  for (const { name, report } of read)
    if (report.profile && report.profile.id !== record.profile.id)
      notes.push(
        `left out ${name} beside the record: a doctor report of another machine (${report.profile.id}; this run's is ${record.profile.id}), not used for its upload references`,
      );
  const doctor = reportReferences(
    same.map((r) => r.report),
    same.map((r) => r.name),
  );
  if (!doctor) return { record, notes };
  notes.push(`the machine's upload references (host memory copy, PCIe link) from ${same.map((r) => r.name).join(', ')} beside the record`);
  return { record: withDoctorReferences(record, doctor), notes };
}
