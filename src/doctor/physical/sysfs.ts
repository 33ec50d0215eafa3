import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { firstSpecialEntry, readRegularFileSync, readText } from '../../base/regular-file.js';
import { basename, dirname, join, relative } from 'node:path';
import { z } from 'zod';
import { type LinkReading, linkReading } from './pcie.js';

/**
 * Reading a machine's PCI tree from Linux sysfs, under a root (/sys, or a copy of another
 * machine's: `--sysfs-root`, the fixtures under fixtures/sysfs/). Layout and file formats:
 * https://docs.kernel.org/PCI/sysfs-pci.html; the files are printed by torvalds/linux
 * drivers/pci/pci-sysfs.c (../shared/facts/hardware-limits.md section 2).
 */

/** A bad --sysfs-root (missing, not a copy of /sys, a broken machine.json): one line, exit 2. */
export class MachineRootError extends Error {
  override readonly name = 'MachineRootError';
}

/**
 * What was recorded beside a copy of another machine's /sys (DIR/machine.json): facts the copy
 * itself cannot hold. Not a kernel file; written by whoever made the copy.
 */
export const recordedMachineSchema = z
  .object({
    kind: z.literal('gpu-transfer-perf sysfs copy'),
    /** The backend the harness ran there. */
    backend: z.enum(['webgpu', 'tensorflow', 'wasm', 'cpu']),
    /** Dawn's GPUAdapterInfo there (webgpu), read field by field; null for other backends. */
    adapter: z.object({ vendor: z.string(), architecture: z.string(), device: z.string(), description: z.string() }).strict().nullable(),
    /** The PCI bus id of the device in use, where known (libtensorflow logs it: 'pci bus id: 0000:18:00.0'). */
    pciBusId: z.string().nullable(),
    /** Whether current_link_* were copied while the device was busy (an idle link may show Gen1). */
    readUnderLoad: z.boolean(),
    /** How the copy was made. */
    note: z.string().min(1),
  })
  .strict();
export type RecordedMachine = z.infer<typeof recordedMachineSchema>;

/** Where doctor reads the machine: sysfs and procfs roots. */
export interface MachineRoot {
  /** /sys, or the copy's sys folder. */
  readonly sys: string;
  /** /proc, or the copy's proc folder; null when a copy has none. */
  readonly proc: string | null;
  /** A copy of (possibly) another machine, not this one's live /sys. */
  readonly isCopy: boolean;
  readonly recorded: RecordedMachine | null;
}

/** This machine: /sys and /proc. */
export const LIVE_ROOT: MachineRoot = { sys: '/sys', proc: '/proc', isCopy: false, recorded: null };

const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();

/**
 * The roots for `--sysfs-root DIR`: DIR is a machine root holding sys/ (and proc/, machine.json),
 * as the committed fixtures are, or a bare copy of /sys (DIR/bus/pci/devices; no process facts).
 */
export function resolveMachineRoot(dir: string | null): MachineRoot {
  if (dir === null) return LIVE_ROOT;
  if (!isDir(dir)) throw new MachineRootError(`--sysfs-root ${dir}: no such directory`);
  let sys: string;
  let proc: string | null = null;
  if (isDir(join(dir, 'sys', 'bus', 'pci', 'devices'))) {
    sys = join(dir, 'sys');
    proc = isDir(join(dir, 'proc')) ? join(dir, 'proc') : null;
  } else if (isDir(join(dir, 'bus', 'pci', 'devices'))) {
    sys = dir;
  } else {
    throw new MachineRootError(`--sysfs-root ${dir}: neither sys/bus/pci/devices nor bus/pci/devices under it; not a copy of /sys`);
  }
  // A copy is read file by file later: a FIFO or device in it would block that read, so it is named now (lstat only, nothing opened).
  const special = firstSpecialEntry(dir);
  if (special)
    throw new MachineRootError(`--sysfs-root ${dir}: ${special.path} is ${special.kind}, not a regular file; a copy of /sys holds files, folders and links`);
  const recordedPath = join(dir, 'machine.json');
  let recorded: RecordedMachine | null = null;
  if (existsSync(recordedPath)) {
    let json: unknown;
    try {
      json = JSON.parse(readRegularFileSync(recordedPath).toString('utf8'));
    } catch (error) {
      throw new MachineRootError(`${recordedPath}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = recordedMachineSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new MachineRootError(`${recordedPath}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    recorded = parsed.data;
  }
  return { sys, proc, isCopy: true, recorded };
}

/** A PCI function's address in sysfs: domain:bus:device.function. */
export const BDF = /^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/;

/** One PCI function on the way from a device up to its root port, with the link it reports. */
export interface PciHop {
  readonly bdf: string;
  /** 'vendor' and 'device' files: '0x10de', '0x2330'. */
  readonly vendor: string | null;
  readonly device: string | null;
  /** 'class' file: '0x030200'. */
  readonly classCode: string | null;
  /** current_link_speed / current_link_width: the link as trained now. */
  readonly current: LinkReading;
  /** max_link_speed / max_link_width: what this end is capable of. */
  readonly max: LinkReading;
  /**
   * A link inside the card, not the slot: this function and the one above it are parts of the
   * same card (an on-card switch, below the card's upstream port). See `markCardInternal`.
   */
  readonly internal: boolean;
  /** Its folder (real path). */
  readonly dir: string;
}

export type DeviceKind = 'display' | 'accelerator';

/** A display or processing-accelerator PCI function and the path from it to its root port. */
export interface PciDevice {
  readonly bdf: string;
  readonly vendor: string;
  readonly device: string;
  readonly classCode: string;
  readonly kind: DeviceKind;
  /** The device itself first, its root port last. */
  readonly hops: readonly PciHop[];
  /** numa_node: -1 (NUMA_NO_NODE) kept as -1; null when the file is absent (no CONFIG_NUMA). */
  readonly numaNode: number | null;
  /** local_cpulist's text (list format), null when absent. */
  readonly localCpulist: string | null;
  /** The real path under the sysfs root ('devices/pci0000:00/0000:00:01.0/0000:01:00.0'). */
  readonly path: string;
}

/**
 * Base class 0x03 (display controller: VGA 0x0300, 3D 0x0302, other 0x0380) and 0x12
 * (processing accelerator), torvalds/linux include/linux/pci_ids.h; 'class' is '0x%06x'.
 */
export function deviceKind(classCode: string | null): DeviceKind | null {
  if (classCode === null) return null;
  const value = Number.parseInt(classCode.trim(), 16);
  if (!Number.isFinite(value)) return null;
  const base = value >> 16;
  return base === 0x03 ? 'display' : base === 0x12 ? 'accelerator' : null;
}

const trimmed = (text: string | null) => (text === null ? null : text.trim());

/** A 'class' file's text that is not a PCI class code ('0x%06x', e.g. 0x030200), said why; null when it is one (or the file is absent). */
export function classCodeProblem(text: string | null): string | null {
  if (text === null || /^0x[0-9a-f]{6}$/i.test(text.trim())) return null;
  const shown = text.trim().length > 40 ? `${text.trim().slice(0, 40)}...` : text.trim();
  return `${JSON.stringify(shown)} is not a PCI class code (0x%06x, e.g. 0x030200)`;
}

/** A PCI function whose kind cannot be told: its 'class' file is there but cannot be parsed. */
export interface UnparsedFunction {
  readonly bdf: string;
  /** The file that cannot be parsed. */
  readonly file: string;
  readonly problem: string;
}

/** The entries of `sys`/bus/pci/devices named like a PCI function, in name order (none without a PCI bus in sysfs). */
function pciFunctionEntries(sys: string): Array<{ name: string; entry: string }> {
  const bus = join(sys, 'bus', 'pci', 'devices');
  if (!isDir(bus)) return [];
  return readdirSync(bus)
    .sort()
    .filter((name) => BDF.test(name))
    .map((name) => ({ name, entry: join(bus, name) }));
}

/**
 * The functions in `sys`/bus/pci/devices whose 'class' file cannot be parsed: each may be a GPU,
 * so it is unknown, not absent (readPciDevices cannot list it as a display or accelerator).
 */
export function readUnparsedFunctions(sys: string): UnparsedFunction[] {
  const found: UnparsedFunction[] = [];
  for (const { name, entry } of pciFunctionEntries(sys)) {
    const file = join(entry, 'class');
    const problem = classCodeProblem(readText(file));
    if (problem !== null) found.push({ bdf: name, file, problem });
  }
  return found;
}

function readHop(dir: string): Omit<PciHop, 'internal'> {
  const read = (file: string) => readText(join(dir, file));
  return {
    bdf: basename(dir),
    vendor: trimmed(read('vendor')),
    device: trimmed(read('device')),
    classCode: trimmed(read('class')),
    current: linkReading(read('current_link_speed'), read('current_link_width')),
    max: linkReading(read('max_link_speed'), read('max_link_width')),
    dir,
  };
}

/**
 * Marks the links inside a card. AMD RDNA and Intel Arc cards carry their own PCIe switch: the
 * GPU hangs below the switch's downstream port, which hangs below its upstream port, all of the
 * card's vendor. The GPU's and the downstream port's entries report the link between them, inside
 * the card (RDNA: 16.0 GT/s x16 while the slot runs slower, ilya-zlobintsev/LACT #334; Arc:
 * 2.5 GT/s x1, Syllo/nvtop PR #344); the card's upstream port reports the slot's link. So every
 * function below the topmost one of the device's vendor is internal; the root port (the path's
 * last hop, part of the platform) never counts as the card, even when the vendors agree (an
 * Intel GPU in an Intel root port).
 */
export function markCardInternal(hops: readonly Omit<PciHop, 'internal'>[]): PciHop[] {
  const vendor = hops[0]?.vendor ?? null;
  let top = 0;
  while (top + 1 < hops.length - 1 && vendor !== null && hops[top + 1]!.vendor === vendor) top++;
  return hops.map((hop, i) => ({ ...hop, internal: i < top }));
}

/** The device's path: its folder and every parent folder named like a PCI function, up to the root port. */
function hopsOf(realDir: string): PciHop[] {
  const dirs: string[] = [];
  for (let dir = realDir; BDF.test(basename(dir)); dir = dirname(dir)) dirs.push(dir);
  return markCardInternal(dirs.map(readHop));
}

/**
 * Every display and accelerator function in `sys`/bus/pci/devices (each entry a symlink into
 * devices/pci<domain>:<bus>/..., resolved), with its path up to the root port. A machine with no
 * PCI bus in sysfs has none.
 */
export function readPciDevices(sys: string): PciDevice[] {
  const devices: PciDevice[] = [];
  for (const { name, entry } of pciFunctionEntries(sys)) {
    const kind = deviceKind(readText(join(entry, 'class')));
    if (kind === null) continue;
    const real = realpathSync(entry);
    const hops = hopsOf(real);
    const own = hops[0]!;
    const numa = trimmed(readText(join(real, 'numa_node')));
    devices.push({
      bdf: name,
      vendor: own.vendor ?? '',
      device: own.device ?? '',
      classCode: own.classCode ?? '',
      kind,
      hops,
      numaNode: numa === null || !/^-?\d+$/.test(numa) ? null : Number(numa),
      localCpulist: trimmed(readText(join(real, 'local_cpulist'))),
      path: relative(realpathSync(sys), real),
    });
  }
  return devices;
}

/** The current link of each hop read again now (under load, while uploads run). */
export function readCurrentLinks(hops: readonly PciHop[]): Map<string, LinkReading> {
  const now = new Map<string, LinkReading>();
  for (const hop of hops) now.set(hop.bdf, linkReading(readText(join(hop.dir, 'current_link_speed')), readText(join(hop.dir, 'current_link_width'))));
  return now;
}

/** Signs of a virtual machine, where cheap to read: the x86 'hypervisor' CPU flag and the DMI system vendor. */
export interface VirtualMachineSigns {
  /** /proc/cpuinfo lists the 'hypervisor' flag (CPUID leaf 1 ECX bit 31, set by hypervisors; X86_FEATURE_HYPERVISOR). */
  readonly hypervisorFlag: boolean;
  /** /sys/class/dmi/id/sys_vendor ('QEMU', 'Amazon EC2'), null when absent. */
  readonly sysVendor: string | null;
}

export function readVirtualMachineSigns(root: MachineRoot): VirtualMachineSigns {
  const cpuinfo = root.proc ? readText(join(root.proc, 'cpuinfo')) : null;
  const flags = cpuinfo === null ? '' : (/^flags\s*:(.*)$/m.exec(cpuinfo)?.[1] ?? '');
  return {
    hypervisorFlag: flags.split(/\s+/).includes('hypervisor'),
    sysVendor: trimmed(readText(join(root.sys, 'class', 'dmi', 'id', 'sys_vendor'))),
  };
}

/** The text of the process's status file (proc/self/status), null without a proc root. */
export function readProcessStatus(root: MachineRoot): string | null {
  return root.proc ? readText(join(root.proc, 'self', 'status')) : null;
}
