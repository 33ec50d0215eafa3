import type { Metric } from './schema.js';

/**
 * The three references a strategy's limit can be read against (issue 35 item 4): the API's own
 * measured upload rate (what the stage `limit` is computed from), the host's memory copy
 * bandwidth, and the PCIe path's limit from sysfs. The first is what the harness can reach
 * through this API; the other two are what the machine allows. Which one binds says whether a
 * strategy at "1.0x of its limit" is at the machine's limit or only at the API's.
 */

/** The three references. */
export type ReferenceKind = 'api-upload' | 'host-copy' | 'pcie-link';

/** The stage-table label of the reference metrics ({ table, group, reference }). */
export const REFERENCE_TABLE = 'upload-references';

/** A reference metric's id: '<group>.upload-reference.<kind>'. */
export const referenceId = (group: string, kind: ReferenceKind): string => `${group}.upload-reference.${kind}`;

/**
 * Below this fraction of min(link, host copy) the API's upload path, not the machine, binds.
 * 0.1, ours: on the H200 of 2026-12-04 PyTorch moved 17.7 GB/s host->device from pageable memory
 * (0.28 of the Gen5 x16 link's 63.0 GB/s, 0.65 of the 27.2 GB/s host copy) and 50.6 GB/s pinned
 * (0.80 of the link; ../shared/gpu/h200-2026-12-04/torch-peer.json, docs/figures.md), and
 * bandwidthTest's pageable copies reach 0.19-0.42 of pinned (gengwg/gpu nvda_gpu_benchmark.md),
 * so 0.14-0.38 of a healthy link: an upload path at under 0.1 of the lower physical bound is
 * several times below what another API reaches through the same link and memory. WebGPU there
 * reached 2.2 GB/s, 0.035 of the link.
 */
export const STAGING_BOUND_FRACTION = 0.1;

/** One reference: its rate and how it reads in a sentence. */
export interface UploadReference {
  readonly kind: ReferenceKind;
  /** Decimal GB/s (1e9 B/s), one direction. */
  readonly gbps: number;
  /** How it reads: "WebGPU's upload rate", 'the host memory copy', 'the Gen5 x16 link'. */
  readonly name: string;
  /** measured (timed on the machine) or computed (the link: speed x width x encoding from sysfs). */
  readonly source: 'measured' | 'computed';
  /** Where it came from when not this run ('doctor-1.json ... beside the record'); null: this run. */
  readonly from: string | null;
}

/** The references of one stage group; any may be unknown. */
export interface UploadReferences {
  readonly api: UploadReference | null;
  readonly hostCopy: UploadReference | null;
  readonly link: UploadReference | null;
}

/** Which reference binds: the API's staging path, or the lower of the machine's two bounds. */
export type Binding = 'api-staging' | 'pcie-link' | 'host-copy';

/** The API's name as the sentence says it: "WebGPU's", "tfjs-node-gpu's". */
export function apiName(backend: string): string {
  const names: Record<string, string> = { webgpu: 'WebGPU', tensorflow: 'tfjs-node-gpu', wasm: 'the wasm backend', cpu: 'the cpu backend' };
  return `${names[backend] ?? backend}'s`;
}

/**
 * Which reference binds. The machine's bound is min(link, host copy) of those known; the API's
 * upload rate below STAGING_BOUND_FRACTION of it: the API's staging path binds; otherwise the
 * lower machine bound. Null without the API's rate or any machine bound.
 */
export function bindingOf(refs: UploadReferences): { readonly binds: Binding; readonly machine: UploadReference } | null {
  const machine = [refs.link, refs.hostCopy].filter((r): r is UploadReference => r !== null).sort((a, b) => a.gbps - b.gbps)[0];
  if (!refs.api || !machine) return null;
  if (refs.api.gbps < STAGING_BOUND_FRACTION * machine.gbps) return { binds: 'api-staging', machine };
  return { binds: machine.kind === 'pcie-link' ? 'pcie-link' : 'host-copy', machine };
}

const gb = (v: number) => `${v.toPrecision(3)} GB/s`;
/** A fraction in two significant digits ('0.035', '0.080', '0.40'). */
const fraction = (v: number) => (v >= 1 ? v.toFixed(2) : v.toPrecision(2));

/**
 * What the references say about the API's rate, in one clause: "that rate (2.17 GB/s) is 0.034
 * of the Gen5 x16 link (63.0 GB/s) and 0.080 of the host memory copy (27.2 GB/s): the API's
 * staging path binds, not this pipeline". Null without the API's rate.
 */
export function referencesClause(refs: UploadReferences): string | null {
  const api = refs.api;
  if (!api) return null;
  const parts = [refs.link, refs.hostCopy]
    .filter((r): r is UploadReference => r !== null)
    .map((r) => `${fraction(api.gbps / r.gbps)} of ${r.name} (${gb(r.gbps)}${r.source === 'computed' ? ', computed from sysfs' : ''})`);
  if (parts.length === 0)
    return `that rate (${gb(api.gbps)}) has no machine bound recorded beside it (no PCIe link or host memory copy figure in the record or a doctor report beside it)`;
  const binding = bindingOf(refs)!;
  const verdict: Record<Binding, string> = {
    'api-staging': `the API's staging path binds, not this pipeline (under ${STAGING_BOUND_FRACTION} of ${binding.machine.name})`,
    'pcie-link': `${binding.machine.name} binds: the API reaches ${fraction(api.gbps / binding.machine.gbps)} of it`,
    'host-copy': `${binding.machine.name} binds: the API reaches ${fraction(api.gbps / binding.machine.gbps)} of it`,
  };
  const from = [...new Set([refs.link, refs.hostCopy].flatMap((r) => (r?.from ? [r.from] : [])))];
  return `that rate (${gb(api.gbps)}) is ${parts.join(' and ')}${from.length > 0 ? ` (from ${from.join('; ')})` : ''}: ${verdict[binding.binds]}`;
}

/** The writeBuffer rate written in a limit metric's detail by records made before the reference metrics ('writeBuffer 2.17 GB/s'). */
const DETAIL_RATE = /writeBuffer (\d+(?:\.\d+)?) GB\/s/;

/**
 * A stage group's references, from its reference metrics ({ table: 'upload-references' }); a
 * record made before them gives the API's rate in its limit metrics' detail (device-limit.ts).
 */
export function groupReferences(metrics: readonly Metric[], group: string, backend: string): UploadReferences {
  const find = (kind: ReferenceKind) => metrics.find((m) => m.id === referenceId(group, kind));
  const toRef = (m: Metric | undefined, kind: ReferenceKind, name: string): UploadReference | null =>
    m ? { kind, gbps: m.value, name: m.labels?.name ?? name, source: m.source ?? 'measured', from: m.labels?.from ?? null } : null;
  let api = toRef(find('api-upload'), 'api-upload', `${apiName(backend)} upload rate`);
  if (!api) {
    const limit = metrics.find(
      (m) => m.labels?.table === 'stages' && m.labels.group === group && m.labels.stage === 'limit' && DETAIL_RATE.test(m.detail ?? ''),
    );
    const rate = limit ? Number(DETAIL_RATE.exec(limit.detail!)![1]) : null;
    if (rate !== null) api = { kind: 'api-upload', gbps: rate, name: `${apiName(backend)} upload rate`, source: 'measured', from: null };
  }
  return { api, hostCopy: toRef(find('host-copy'), 'host-copy', 'the host memory copy'), link: toRef(find('pcie-link'), 'pcie-link', 'the PCIe link') };
}

/** A reference metric of a stage group, as a scenario records it (informational: a quality figure with no bound). */
export function referenceMetric(
  group: string,
  ref: Omit<UploadReference, 'from'> & { readonly from?: string | null },
  detail: string,
): Omit<Metric, 'scenario'> {
  return {
    id: referenceId(group, ref.kind),
    kind: 'quality',
    // The machine's rate, not the code's: shown beside the limit, never judged or exported as a benchmark.
    direction: 'info',
    value: ref.gbps,
    unit: 'GB/s',
    bound: {},
    source: ref.source,
    detail,
    labels: { table: REFERENCE_TABLE, group, reference: ref.kind, name: ref.name, ...(ref.from ? { from: ref.from } : {}) },
  };
}
