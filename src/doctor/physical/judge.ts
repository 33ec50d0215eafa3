import type { Check, CheckStatus } from '../schema.js';
import { allowedCpusFromStatus, cpuOverlap, parseCpuList } from './cpulist.js';
import { type AdapterIdentity, type AdapterMatch, matchAdapter } from './match.js';
import { formatLink, type LinkReading, linkGBps } from './pcie.js';
import type { PciDevice, PciHop, UnparsedFunction, VirtualMachineSigns } from './sysfs.js';

/**
 * The physical verdicts: from a machine's PCI tree (sysfs), its process facts and the adapter in
 * use, with no benchmark and no earlier run. Pure: everything read is handed in, so fixtures
 * judge exactly as a live machine does.
 */

/** The slowest link on a device's path, as trained now and as capable. */
export interface PathLimit {
  /** min over the path's hops of current speed x width x encoding; null when no hop has a readable link. */
  readonly current: { readonly gbps: number; readonly at: string; readonly reading: LinkReading } | null;
  readonly capable: { readonly gbps: number; readonly at: string; readonly reading: LinkReading } | null;
  /** Hops outside the card whose link files are absent or say 'Unknown' (conventional PCI, an emulated port). */
  readonly unread: readonly string[];
}

/**
 * The path minimum, as the kernel's pcie_bandwidth_available() walks it (the device, then each
 * bridge up to the root port; torvalds/linux drivers/pci/pci.c): every hop reports the link it
 * sits on, so each link is seen from both ends and the minimum of the max_link_* values is the
 * link's capability (the lower of its two ends). Hops inside the card are left out (markCardInternal).
 * `now`: current readings taken again (under load) by bdf, replacing those read at first.
 */
export function pathLimit(device: PciDevice, now: ReadonlyMap<string, LinkReading> | null = null): PathLimit {
  let current: PathLimit['current'] = null;
  let capable: PathLimit['capable'] = null;
  const unread: string[] = [];
  for (const hop of device.hops) {
    if (hop.internal) continue;
    const reading = now?.get(hop.bdf) ?? hop.current;
    const cur = linkGBps(reading);
    const cap = linkGBps(hop.max);
    if (cur === null && cap === null) unread.push(hop.bdf);
    if (cur !== null && (current === null || cur < current.gbps)) current = { gbps: cur, at: hop.bdf, reading };
    if (cap !== null && (capable === null || cap < capable.gbps)) capable = { gbps: cap, at: hop.bdf, reading: hop.max };
  }
  return { current, capable, unread };
}

// Rates are products of exact factors; a relative 1e-9 keeps float noise from calling a link degraded.
const below = (a: number, b: number) => a < b * (1 - 1e-9);

export type LinkVerdict = 'healthy' | 'degraded' | 'unknown';
export type NumaVerdict = 'local' | 'remote' | 'unbound' | 'not-applicable' | 'unknown';

export interface LinkJudgement {
  readonly bdf: string;
  readonly verdict: LinkVerdict;
  readonly currentGBps: number | null;
  readonly capableGBps: number | null;
  /** The hop with the slowest current link. */
  readonly bottleneck: string | null;
  /** Hops inside the card, left out of the minimum. */
  readonly internal: readonly string[];
}

export interface NumaJudgement {
  readonly bdf: string;
  readonly verdict: NumaVerdict;
  readonly numaNode: number | null;
}

/** Everything the verdicts depend on. */
export interface PhysicalInput {
  readonly devices: readonly PciDevice[];
  readonly adapter: AdapterIdentity | null;
  /** The text of proc/self/status (Cpus_allowed_list), null when unknown. */
  readonly processStatus: string | null;
  readonly vm: VirtualMachineSigns;
  /** Current link readings taken while uploads ran, by bdf; null when none were taken. */
  readonly underLoad: ReadonlyMap<string, LinkReading> | null;
  /** The links were read while the device was busy (live sampling, or recorded with a copy). */
  readonly readUnderLoad: boolean;
  /** Where the readings come from, for messages ('/sys', 'fixtures/sysfs/x/sys'). */
  readonly source: string;
  /** Functions whose 'class' file cannot be parsed (sysfs.ts readUnparsedFunctions): unknown, each may be the GPU. */
  readonly unparsed?: readonly UnparsedFunction[];
}

/** The verdicts, as tests pin them and the report keeps them. */
export interface PhysicalVerdict {
  readonly match: AdapterMatch['kind'];
  /** The functions the adapter may be (matched: one; ambiguous: several). */
  readonly candidates: readonly string[];
  readonly links: readonly LinkJudgement[];
  readonly numa: readonly NumaJudgement[];
  readonly virtualMachine: boolean;
  /**
   * The PCIe limit of the adapter's path (decimal GB/s, current link, read under load where it
   * was): one device matched, or every candidate's path with the same limit; null otherwise.
   */
  readonly linkLimitGBps: number | null;
}

const idOf = (bdf: string) => bdf.replace(/[:.]/g, '-');
/** The PCI address in a per-device check id ('physical.link.0000-1a-00-0' -> '0000:1a:00.0'), the inverse of idOf; null for other ids. */
export function bdfOfCheckId(id: string, check = '[a-z-]+'): string | null {
  const m = new RegExp(`^physical\\.${check}\\.([0-9a-f]{4})-([0-9a-f]{2})-([0-9a-f]{2})-([0-7])$`).exec(id);
  return m ? `${m[1]}:${m[2]}:${m[3]}.${m[4]}` : null;
}
/** A function's PCI ids as lspci -n shows them: '10de:2330'. */
export const pciIds = (d: { readonly vendor: string; readonly device: string }) => `${d.vendor.replace(/^0x/, '')}:${d.device.replace(/^0x/, '')}`;
const described = (d: PciDevice) => `${d.bdf} (${pciIds(d)}, ${d.kind})`;

/** The link verdict of one device and its check line. */
function judgeLink(device: PciDevice, input: PhysicalInput, inUse: boolean): { judgement: LinkJudgement; check: Check } {
  const limit = pathLimit(device, input.underLoad);
  const internal = device.hops.filter((h) => h.internal).map((h) => h.bdf);
  const id = `physical.link.${idOf(device.bdf)}`;
  const hops = device.hops.length;
  const rootPort = device.hops[hops - 1]!.bdf;
  const path = hops > 1 ? `${hops} hops up to root port ${rootPort}` : 'no bridge above it';
  const when = input.underLoad ? 'read while uploading' : input.readUnderLoad ? 'recorded under load' : 'read at idle';
  const base = {
    bdf: device.bdf,
    currentGBps: limit.current?.gbps ?? null,
    capableGBps: limit.capable?.gbps ?? null,
    bottleneck: limit.current?.at ?? null,
    internal,
  };
  if (limit.current === null || limit.capable === null) {
    return {
      judgement: { ...base, verdict: 'unknown' },
      check: {
        id,
        status: 'info',
        reason: `${described(device)}: no readable PCIe link on its path (${path}; integrated, conventional PCI or an emulated port): no PCIe limit to judge against`,
      },
    };
  }
  const cur = limit.current;
  const cap = limit.capable;
  const unread = limit.unread.length > 0 ? `; no link files at ${limit.unread.join(', ')}` : '';
  if (!below(cur.gbps, cap.gbps)) {
    return {
      judgement: { ...base, verdict: 'healthy' },
      check: {
        id,
        status: 'ok',
        reason: `${described(device)}: path minimum ${formatLink(cur.reading)} at ${cur.at} (${path}${unread}), as capable: healthy link (${when})`,
      },
    };
  }
  // A link below what both its ends can do: retrained down (signal integrity: speed; slot wiring,
  // risers, bifurcation, BIOS: width; facts section 3), or power saving when read at idle.
  const idle = !input.underLoad && !input.readUnderLoad;
  const status: CheckStatus = inUse && !idle && !isVm(input.vm) ? 'fail' : 'warn';
  const caveat = idle
    ? '; read at idle, when NVIDIA GPUs lower the link (gen and width "may be reduced when the GPU is not in use", NVIDIA/gpu-monitoring-tools #215): confirm under load'
    : isVm(input.vm)
      ? "; in a virtual machine the guest's view of the link may be wrong: confirm on the host"
      : inUse
        ? ''
        : '; not the device in use';
  const factor = cap.gbps / cur.gbps;
  return {
    judgement: { ...base, verdict: 'degraded' },
    check: {
      id,
      status,
      reason: `${described(device)}: DEGRADED link: ${formatLink(cur.reading)} at ${cur.at} where the path is capable of ${formatLink(cap.reading)} (at ${cap.at}): host->device capped at ${cur.gbps.toFixed(1)} of ${cap.gbps.toFixed(1)} GB/s (${factor.toFixed(1)}x less, ${when}); fix: reseat the card, check the riser and slot (x16 wiring, lanes shared with M.2) and the BIOS PCIe generation setting${unread}${caveat}`,
    },
  };
}

const isVm = (vm: VirtualMachineSigns) => vm.hypervisorFlag;

/** The NUMA verdict of one device: are the process's CPUs local to it? (facts section 4) */
function judgeNuma(device: PciDevice, input: PhysicalInput): { judgement: NumaJudgement; check: Check } {
  const id = `physical.numa.${idOf(device.bdf)}`;
  const node = device.numaNode;
  const result = (verdict: NumaVerdict, status: CheckStatus, reason: string) => ({
    judgement: { bdf: device.bdf, verdict, numaNode: node },
    check: { id, status, reason: `${device.bdf} NUMA: ${reason}` },
  });
  if (node === null || node < 0) {
    return result(
      'not-applicable',
      'info',
      `numa_node ${node ?? 'absent'}: no NUMA node is assigned to the device (one socket, or the firmware does not say; TensorFlow logs the same -1, tensorflow/tfjs #8269): the check does not apply`,
    );
  }
  const local = device.localCpulist === null ? null : parseCpuList(device.localCpulist);
  const allowed = input.processStatus === null ? null : allowedCpusFromStatus(input.processStatus);
  if (local === null || local.length === 0) return result('unknown', 'info', `node ${node}, but no readable local_cpulist: the check cannot be made`);
  if (allowed === null)
    return result(
      'unknown',
      'info',
      `node ${node} (CPUs ${device.localCpulist}); the process's allowed CPUs are unknown (no proc/self/status): the check cannot be made`,
    );
  const bind = `numactl --cpunodebind=${node} --membind=${node} <command>`;
  switch (cpuOverlap(allowed.cpus, local)) {
    case 'within':
      return result('local', 'ok', `the process runs only on CPUs ${allowed.text}, local to node ${node} (CPUs ${device.localCpulist})`);
    case 'disjoint':
      return result(
        'remote',
        'warn',
        `the process runs only on CPUs ${allowed.text}, none on the device's node ${node} (CPUs ${device.localCpulist}): host->device from the remote node ran 3.2x slower on a 2-socket P100 (mpicbg-scicomp/gearshifft PR #82); fix: ${bind}`,
      );
    case 'partly':
      return result(
        'unbound',
        'info',
        `the process may run on CPUs ${allowed.text}, of which only ${device.localCpulist} are on the device's node ${node}: buffers on another node cost up to 3.2x host->device (gearshifft PR #82); for steady figures: ${bind}`,
      );
  }
}

/** The match line: which function is the adapter, and what follows. */
function matchCheck(match: AdapterMatch, input: PhysicalInput): Check {
  const byBdf = new Map(input.devices.map((d) => [d.bdf, d]));
  const list = (bdfs: readonly string[]) => bdfs.map((b) => (byBdf.has(b) ? described(byBdf.get(b)!) : b)).join(', ');
  const name = input.adapter ? `${input.adapter.backend} adapter ${[input.adapter.vendor, input.adapter.name].filter(Boolean).join(' ') || '(unnamed)'}` : '';
  switch (match.kind) {
    case 'matched':
      return {
        id: 'physical.match',
        status: 'ok',
        reason: `the ${name} is ${list(match.bdfs)}${input.adapter?.pciBusId ? ' (by its PCI bus id)' : ', the only function of its vendor'}`,
      };
    case 'ambiguous':
      return {
        id: 'physical.match',
        status: 'warn',
        reason: `AMBIGUOUS: the ${name} could be any of ${list(match.bdfs)} (same vendor; the adapter reports no PCI address, sysfs no model name): each path is judged below, and the efficiency only when their limits agree`,
      };
    case 'host': {
      const gpus = input.devices.map(described);
      if (input.adapter?.isSoftware && gpus.length > 0) {
        return {
          id: 'physical.match',
          status: 'warn',
          reason: `${match.why}, although ${gpus.join(', ')} is present: uploads and kernels run on the CPU; install that GPU's Vulkan driver (check with \`vulkaninfo --summary\`) and run doctor again`,
        };
      }
      return {
        id: 'physical.match',
        status: 'info',
        reason: `${match.why}: no PCIe link carries its uploads; its limit is the host's memory copy bandwidth (measured below)`,
      };
    }
    case 'none':
      return {
        id: 'physical.match',
        status: 'warn',
        reason: `the ${name} matches no PCI function in ${input.source} (${match.why}): its link cannot be judged (a virtual machine without the device's PCI view, or a GPU that is not a PCI function)`,
      };
    case 'unknown':
      return {
        id: 'physical.match',
        status: 'info',
        reason: 'the adapter in use is unknown (no backend started, or a copy of /sys without machine.json): every display and accelerator function is judged',
      };
  }
}

/** All physical verdicts and their check lines, in the order doctor prints them. */
export function judgePhysical(input: PhysicalInput): { verdict: PhysicalVerdict; checks: Check[] } {
  const checks: Check[] = [];
  const { devices } = input;
  checks.push({
    id: 'physical.devices',
    status: 'info',
    reason:
      devices.length === 0
        ? `no display or accelerator PCI function (class 0x03xxxx, 0x12xxxx) in ${input.source}/bus/pci/devices`
        : `${devices.length} display/accelerator PCI function${devices.length > 1 ? 's' : ''} in ${input.source}: ${devices.map((d) => `${described(d)} at ${d.path}`).join('; ')}`,
  });
  const unparsed = input.unparsed ?? [];
  for (const u of unparsed) checks.push(unparsedCheck(u));
  const found = matchAdapter(input.adapter, devices);
  // The adapter's function may be one that cannot be read: unknown, not absent.
  const match: AdapterMatch = found.kind === 'none' && unparsed.length > 0 ? { kind: 'unknown' } : found;
  checks.push(
    match === found
      ? matchCheck(match, input)
      : {
          id: 'physical.match',
          status: 'warn',
          reason: `UNKNOWN: the adapter matches no readable PCI function in ${input.source} (${found.kind === 'none' ? found.why : ''}), but ${unparsed.map((u) => u.bdf).join(', ')} cannot be read (above): it may be one of them`,
        },
  );
  const inUse = match.kind === 'matched' || match.kind === 'ambiguous' ? new Set(match.bdfs) : null;
  // The device in use, or (nothing in use matched) every device: a finding on a GPU nothing uses is still a finding.
  const judged = inUse ? devices.filter((d) => inUse.has(d.bdf)) : devices;
  const links: LinkJudgement[] = [];
  const numa: NumaJudgement[] = [];
  for (const device of judged) {
    const link = judgeLink(device, input, inUse !== null);
    links.push(link.judgement);
    checks.push(link.check);
    const internal = device.hops.filter((h) => h.internal);
    if (internal.length > 0) checks.push(internalCheck(device, internal));
    const n = judgeNuma(device, input);
    numa.push(n.judgement);
    checks.push(n.check);
  }
  const virtualMachine = isVm(input.vm);
  if (virtualMachine || input.vm.sysVendor) {
    checks.push({
      id: 'physical.vm',
      status: 'info',
      reason: virtualMachine
        ? `virtual machine (the 'hypervisor' CPU flag${input.vm.sysVendor ? `; DMI system vendor '${input.vm.sysVendor}'` : ''}): PCI links are the guest's view and may not be the host's ("faulty PCI tree reflection" on VMs, docs.habana.ai bandwidth tests plugin)`
        : `DMI system vendor '${input.vm.sysVendor}', no 'hypervisor' CPU flag: bare metal as far as doctor can tell`,
    });
  }
  const limits = inUse ? links.map((l) => l.currentGBps) : [];
  const shared = limits.length > 0 && limits.every((l) => l !== null && l === limits[0]) ? limits[0]! : null;
  // Each unreadable function is judged unknown: listed with its link verdict, never left out as if absent.
  for (const u of unparsed) links.push({ bdf: u.bdf, verdict: 'unknown', currentGBps: null, capableGBps: null, bottleneck: null, internal: [] });
  return {
    verdict: { match: match.kind, candidates: inUse ? [...inUse] : [], links, numa, virtualMachine, linkLimitGBps: shared },
    checks,
  };
}

/** The check id of a function whose sysfs file cannot be parsed: doctor could not judge the machine (couldNotJudge). */
const UNPARSED_CHECK = 'physical.unparsed';

/** The line of a function whose 'class' file cannot be parsed: named, and its kind unknown. */
function unparsedCheck(u: UnparsedFunction): Check {
  return {
    id: `${UNPARSED_CHECK}.${idOf(u.bdf)}`,
    status: 'warn',
    reason: `${u.file}: ${u.problem}, so PCI function ${u.bdf} is UNKNOWN (it may be the GPU): its link and NUMA node cannot be judged; copy the file again from the machine (or fix the copy)`,
  };
}

/**
 * Whether doctor could not judge the machine: a sysfs file it needs cannot be parsed, so a device
 * is unknown. Exit 2 ("could not judge"), not 0: a garbled file must not read as "no GPU, all well".
 */
export function couldNotJudge(checks: readonly Check[]): boolean {
  return unjudgedCheck(checks) !== undefined;
}

/** The first check of a function doctor could not judge (a sysfs file it cannot parse), if any. */
export function unjudgedCheck(checks: readonly Check[]): Check | undefined {
  return checks.find((c) => c.id.startsWith(`${UNPARSED_CHECK}.`));
}

function internalCheck(device: PciDevice, internal: readonly PciHop[]): Check {
  const top = device.hops.find((h) => !h.internal)!;
  return {
    id: `physical.card-internal.${idOf(device.bdf)}`,
    status: 'info',
    reason: `${internal.map((h) => `${h.bdf} reports ${formatLink(h.current)}`).join(', ')}: links inside the card (below its own switch, vendor ${device.vendor}), not the slot; the card's link is read at its upstream port ${top.bdf}: ${formatLink(top.current)} (Intel Arc reports 2.5 GT/s x1 there, Syllo/nvtop PR #344; AMD RDNA its internal x16, ilya-zlobintsev/LACT #334)`,
  };
}
