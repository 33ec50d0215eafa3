import { softwareAdapterName } from '../../backend/fingerprint.js';
import { judgePhysical, type PhysicalVerdict } from './judge.js';
import type { AdapterIdentity } from './match.js';
import type { LinkReading } from './pcie.js';
import {
  type MachineRoot,
  type PciDevice,
  type RecordedMachine,
  readPciDevices,
  readProcessStatus,
  readUnparsedFunctions,
  type UnparsedFunction,
  readVirtualMachineSigns,
  type VirtualMachineSigns,
} from './sysfs.js';
import type { Check } from '../schema.js';

/** What doctor read of a machine, once; the verdicts are judged from it (again, under load). */
export interface MachineReading {
  readonly root: MachineRoot;
  readonly devices: readonly PciDevice[];
  readonly processStatus: string | null;
  readonly vm: VirtualMachineSigns;
  /** Functions whose 'class' file cannot be parsed: unknown, not absent. */
  readonly unparsed: readonly UnparsedFunction[];
}

export function readMachine(root: MachineRoot): MachineReading {
  return {
    root,
    devices: readPciDevices(root.sys),
    processStatus: readProcessStatus(root),
    vm: readVirtualMachineSigns(root),
    unparsed: readUnparsedFunctions(root.sys),
  };
}

/** The adapter recorded with a copy (machine.json), as the matcher wants it. */
export function recordedAdapter(recorded: RecordedMachine | null): AdapterIdentity | null {
  if (recorded === null) return null;
  const a = recorded.adapter;
  return {
    backend: recorded.backend,
    vendor: a?.vendor ?? null,
    name: a?.device ?? null,
    isSoftware: a !== null && softwareAdapterName(a) !== null,
    pciBusId: recorded.pciBusId,
    cudaGpu: recorded.backend === 'tensorflow',
  };
}

/** The verdicts of a reading; `underLoad`: current links read again while uploads ran. */
export function judgeMachine(
  reading: MachineReading,
  adapter: AdapterIdentity | null,
  underLoad: ReadonlyMap<string, LinkReading> | null = null,
): { verdict: PhysicalVerdict; checks: Check[] } {
  return judgePhysical({
    devices: reading.devices,
    adapter,
    processStatus: reading.processStatus,
    vm: reading.vm,
    underLoad,
    readUnderLoad: underLoad !== null || reading.root.recorded?.readUnderLoad === true,
    source: reading.root.sys,
    unparsed: reading.unparsed,
  });
}
