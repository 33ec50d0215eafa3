import type { PhysicalSection } from '../schema.js';
import type { Efficiency } from './efficiency.js';
import type { PhysicalVerdict } from './judge.js';
import type { MachineReading } from './machine.js';
import type { AdapterMatch } from './match.js';
import type { LinkReading } from './pcie.js';
import { allowedCpusFromStatus } from './cpulist.js';
import type { PciDevice, PciHop } from './sysfs.js';

/** The hops whose links doctor reads again under load: those of the functions the adapter may be. */
export function hopsToWatch(devices: readonly PciDevice[], match: AdapterMatch): PciHop[] {
  if (match.kind !== 'matched' && match.kind !== 'ambiguous') return [];
  const wanted = new Set(match.bdfs);
  const hops = new Map<string, PciHop>();
  for (const device of devices) if (wanted.has(device.bdf)) for (const hop of device.hops) if (!hop.internal) hops.set(hop.bdf, hop);
  return [...hops.values()];
}

/** Why no PCIe limit is known for the adapter, in words, for the efficiency line. */
export function whyNoLink(verdict: PhysicalVerdict): string {
  switch (verdict.match) {
    case 'ambiguous':
      return `the adapter could be any of ${verdict.candidates.join(', ')}, whose paths have different limits`;
    case 'none':
      return 'the adapter matches no PCI function here';
    case 'unknown':
      return 'the adapter is unknown';
    case 'host':
      return 'the device is the CPU';
    case 'matched':
      return `no readable PCIe link on the path of ${verdict.candidates[0]}`;
  }
}

/** The report's physical section: the verdicts and every reading behind them. */
export function physicalSection(
  reading: MachineReading,
  verdict: PhysicalVerdict,
  underLoad: ReadonlyMap<string, LinkReading> | null,
  efficiency: Efficiency | null,
): PhysicalSection {
  return {
    source: reading.root.sys,
    isCopy: reading.root.isCopy,
    devices: reading.devices.map((d) => ({ ...d, hops: d.hops.map(({ dir: _dir, ...hop }) => hop) })),
    allowedCpus: reading.processStatus === null ? null : (allowedCpusFromStatus(reading.processStatus)?.text ?? null),
    virtualMachine: reading.vm,
    underLoad: underLoad === null ? null : [...underLoad].map(([bdf, r]) => ({ bdf, reading: r })),
    verdict: {
      ...verdict,
      candidates: [...verdict.candidates],
      links: verdict.links.map((l) => ({ ...l, internal: [...l.internal] })),
      numa: [...verdict.numa],
    },
    efficiency,
  };
}

/** The PCI address of the adapter doctor measured, when exactly one function was matched to it; else null (a software adapter, the host, ambiguous). */
export function matchedBdf(physical: PhysicalSection | undefined): string | null {
  return physical?.verdict.match === 'matched' && physical.verdict.candidates.length === 1 ? physical.verdict.candidates[0]! : null;
}
