// The physical verdicts of each committed sysfs copy (fixtures/sysfs/<name>/: sys/, proc/self/status,
// machine.json), read for real from disk as doctor reads /sys, and of this machine's own /sys.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../../test/support/temp-folder.js';
import { judgeMachine, readMachine, recordedAdapter } from './machine.js';
import { matchAdapter } from './match.js';
import { LinkSampler } from './sampler.js';
import { hopsToWatch } from './section.js';
import { LIVE_ROOT, MachineRootError, resolveMachineRoot } from './sysfs.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/sysfs/', import.meta.url));
const judgeFixture = (name: string) => {
  const root = resolveMachineRoot(join(FIXTURES, name));
  const reading = readMachine(root);
  return { reading, ...judgeMachine(reading, recordedAdapter(root.recorded)) };
};
const statuses = (checks: readonly { id: string; status: string }[]) => Object.fromEntries(checks.map((c) => [c.id, c.status]));
const GEN5_X16 = (32 * 16 * 128) / 130 / 8; // 63.0 GB/s
const GEN4_X16 = (16 * 16 * 128) / 130 / 8; // 31.5 GB/s

describe('committed sysfs copies', () => {
  it('h200-vm-flat (a real copy, 2026-12-04): the H200 at 00:06.0 with no bridge above it, Gen5 x16, NUMA -1, in a VM: healthy', () => {
    const { verdict, checks, reading } = judgeFixture('h200-vm-flat');
    // Seven functions on the VM's flat bus (host bridge, virtio); the GPU is the only display one, its own root.
    expect(reading.devices.map((d) => [d.bdf, d.vendor, d.device, d.classCode, d.hops.map((h) => h.bdf)])).toEqual([
      ['0000:00:06.0', '0x10de', '0x2335', '0x030200', ['0000:00:06.0']],
    ]);
    expect(reading.vm).toEqual({ hypervisorFlag: true, sysVendor: null });
    expect(verdict).toEqual({
      match: 'matched',
      candidates: ['0000:00:06.0'],
      links: [{ bdf: '0000:00:06.0', verdict: 'healthy', currentGBps: GEN5_X16, capableGBps: GEN5_X16, bottleneck: '0000:00:06.0', internal: [] }],
      numa: [{ bdf: '0000:00:06.0', verdict: 'not-applicable', numaNode: -1 }],
      virtualMachine: true,
      linkLimitGBps: GEN5_X16,
    });
    expect(statuses(checks)).toEqual({
      'physical.devices': 'info',
      'physical.match': 'ok',
      'physical.link.0000-00-06-0': 'ok',
      'physical.numa.0000-00-06-0': 'info',
      'physical.vm': 'info',
    });
    expect(checks.find((c) => c.id === 'physical.link.0000-00-06-0')?.reason).toBe(
      '0000:00:06.0 (10de:2335, display): path minimum Gen5 x16 (32.0 GT/s, 63.0 GB/s) at 0000:00:06.0 (no bridge above it), as capable: healthy link (read at idle)',
    );
  });

  it('gen5-x16-two-switches: the one H100 matched, Gen5 x16 through six hops, NUMA-local: healthy', () => {
    const { verdict, checks, reading } = judgeFixture('gen5-x16-two-switches');
    expect(reading.devices.map((d) => [d.bdf, d.hops.map((h) => h.bdf)])).toEqual([
      ['0000:1a:00.0', ['0000:1a:00.0', '0000:19:00.0', '0000:18:00.0', '0000:17:00.0', '0000:16:00.0', '0000:15:01.0']],
    ]);
    expect(verdict).toEqual({
      match: 'matched',
      candidates: ['0000:1a:00.0'],
      links: [{ bdf: '0000:1a:00.0', verdict: 'healthy', currentGBps: GEN5_X16, capableGBps: GEN5_X16, bottleneck: '0000:1a:00.0', internal: [] }],
      numa: [{ bdf: '0000:1a:00.0', verdict: 'local', numaNode: 0 }],
      virtualMachine: false,
      linkLimitGBps: GEN5_X16,
    });
    expect(statuses(checks)).toEqual({
      'physical.devices': 'info',
      'physical.match': 'ok',
      'physical.link.0000-1a-00-0': 'ok',
      'physical.numa.0000-1a-00-0': 'ok',
    });
    expect(checks.find((c) => c.id === 'physical.link.0000-1a-00-0')?.reason).toMatch(
      /path minimum Gen5 x16 \(32\.0 GT\/s, 63\.0 GB\/s\) at 0000:1a:00\.0 \(6 hops up to root port 0000:15:01\.0\), as capable: healthy link \(recorded under load\)/,
    );
  });

  it('gen3-x8-degraded: the same card trained at Gen3 x8 under load: degraded, a failed check naming the cost and the fix', () => {
    const { verdict, checks } = judgeFixture('gen3-x8-degraded');
    const gen3x8 = (8 * 8 * 128) / 130 / 8;
    expect(verdict.links).toEqual([
      { bdf: '0000:1a:00.0', verdict: 'degraded', currentGBps: gen3x8, capableGBps: GEN5_X16, bottleneck: '0000:1a:00.0', internal: [] },
    ]);
    expect(verdict.linkLimitGBps).toBe(gen3x8);
    const link = checks.find((c) => c.id === 'physical.link.0000-1a-00-0')!;
    expect(link.status).toBe('fail');
    expect(link.reason).toMatch(
      /DEGRADED link: Gen3 x8 \(8\.0 GT\/s, 7\.9 GB\/s\) at 0000:1a:00\.0 where the path is capable of Gen5 x16 .*7\.9 of 63\.0 GB\/s \(8\.0x less, recorded under load\); fix: reseat/,
    );
  });

  it("arc-own-entry-gen1: the GPU's own Gen1 x1 is inside the card; the slot's Gen4 x16 decides: healthy", () => {
    const { verdict, checks } = judgeFixture('arc-own-entry-gen1');
    expect(verdict.match).toBe('matched');
    expect(verdict.links).toEqual([
      {
        bdf: '0000:03:00.0',
        verdict: 'healthy',
        currentGBps: GEN4_X16,
        capableGBps: GEN4_X16,
        bottleneck: '0000:01:00.0',
        internal: ['0000:03:00.0', '0000:02:01.0'],
      },
    ]);
    expect(checks.find((c) => c.id === 'physical.card-internal.0000-03-00-0')?.reason).toMatch(
      /^0000:03:00\.0 reports Gen1 x1 \(2\.5 GT\/s, 0\.3 GB\/s\), 0000:02:01\.0 reports Gen1 x1 .*upstream port 0000:01:00\.0: Gen4 x16/,
    );
  });

  it('numa-node-unassigned: numa_node -1 makes the NUMA check not applicable; the link is healthy', () => {
    const { verdict, checks } = judgeFixture('numa-node-unassigned');
    expect(verdict.numa).toEqual([{ bdf: '0000:01:00.0', verdict: 'not-applicable', numaNode: -1 }]);
    // A Gen4 card in a Gen5 root port: the card's own capability is the path's.
    expect(verdict.links[0]).toMatchObject({ verdict: 'healthy', currentGBps: GEN4_X16, capableGBps: GEN4_X16 });
    expect(checks.find((c) => c.id === 'physical.numa.0000-01-00-0')).toMatchObject({
      status: 'info',
      reason: expect.stringMatching(/numa_node -1: .*does not apply/),
    });
  });

  it('two-identical-gpus: two H100 of one vendor are ambiguous; both paths judged, their one limit kept', () => {
    const { verdict, checks } = judgeFixture('two-identical-gpus');
    expect(verdict.match).toBe('ambiguous');
    expect(verdict.candidates).toEqual(['0000:4b:00.0', '0000:ca:00.0']);
    expect(verdict.links.map((l) => [l.bdf, l.verdict])).toEqual([
      ['0000:4b:00.0', 'healthy'],
      ['0000:ca:00.0', 'healthy'],
    ]);
    expect(verdict.numa.map((n) => [n.bdf, n.verdict])).toEqual([
      ['0000:4b:00.0', 'unbound'],
      ['0000:ca:00.0', 'unbound'],
    ]);
    expect(verdict.linkLimitGBps).toBe(GEN5_X16);
    expect(checks.find((c) => c.id === 'physical.match')).toMatchObject({
      status: 'warn',
      reason: expect.stringMatching(/^AMBIGUOUS: .*0000:4b:00\.0 .*0000:ca:00\.0/),
    });
  });
});

/** Writes one PCI function of a sysfs copy as the kernel lays it out: files under devices/, a symlink in bus/pci/devices. */
async function writeFunction(
  sys: string,
  path: string,
  f: { class: string; vendor: string; device: string; cur: [string, number]; max: [string, number]; numa?: [number, string] },
): Promise<void> {
  const dir = join(sys, 'devices', path);
  await mkdir(dir, { recursive: true });
  const files: Record<string, string> = {
    class: f.class,
    vendor: f.vendor,
    device: f.device,
    current_link_speed: f.cur[0],
    current_link_width: String(f.cur[1]),
    max_link_speed: f.max[0],
    max_link_width: String(f.max[1]),
    ...(f.numa ? { numa_node: String(f.numa[0]), local_cpulist: f.numa[1] } : {}),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), `${text}\n`);
  const bdf = path.split('/').pop()!;
  await mkdir(join(sys, 'bus', 'pci', 'devices'), { recursive: true });
  await symlink(`../../../devices/${path}`, join(sys, 'bus', 'pci', 'devices', bdf));
}

describe('a sysfs copy made here, not among the committed ones', () => {
  const temp = tempFolder('gtp-sysfs-');

  it('judges a Gen4 switch uplink trained at x8 above a healthy GPU link (degraded higher up), and a process on the other NUMA node (remote)', async () => {
    const dir = temp.path;
    const sys = join(dir, 'sys');
    const g4 = '16.0 GT/s PCIe';
    const rp = 'pci0000:80/0000:80:03.0';
    await writeFunction(sys, rp, { class: '0x060400', vendor: '0x1022', device: '0x1483', cur: [g4, 8], max: [g4, 16] });
    await writeFunction(sys, `${rp}/0000:81:00.0`, { class: '0x060400', vendor: '0x10b5', device: '0x8747', cur: [g4, 8], max: [g4, 16] });
    await writeFunction(sys, `${rp}/0000:81:00.0/0000:82:08.0`, { class: '0x060400', vendor: '0x10b5', device: '0x8747', cur: [g4, 16], max: [g4, 16] });
    await writeFunction(sys, `${rp}/0000:81:00.0/0000:82:08.0/0000:83:00.0`, {
      class: '0x120000',
      vendor: '0x1002',
      device: '0x740f',
      cur: [g4, 16],
      max: [g4, 16],
      numa: [1, '16-31'],
    });
    // A non-GPU function beside it: not judged.
    await writeFunction(sys, 'pci0000:00/0000:00:1f.2', { class: '0x010601', vendor: '0x8086', device: '0x2922', cur: ['Unknown', 0], max: ['Unknown', 0] });
    await mkdir(join(dir, 'proc', 'self'), { recursive: true });
    await writeFile(join(dir, 'proc', 'self', 'status'), 'Name:\tnode\nCpus_allowed:\t0000ffff\nCpus_allowed_list:\t0-15\nMems_allowed_list:\t0\n');

    const root = resolveMachineRoot(dir);
    expect(root).toMatchObject({ sys, proc: join(dir, 'proc'), isCopy: true, recorded: null });
    const reading = readMachine(root);
    // No machine.json: the adapter is unknown, every accelerator is judged; read at idle, so a warning.
    const { verdict, checks } = judgeMachine(reading, null);
    expect(verdict).toEqual({
      match: 'unknown',
      candidates: [],
      links: [{ bdf: '0000:83:00.0', verdict: 'degraded', currentGBps: GEN4_X16 / 2, capableGBps: GEN4_X16, bottleneck: '0000:81:00.0', internal: [] }],
      numa: [{ bdf: '0000:83:00.0', verdict: 'remote', numaNode: 1 }],
      virtualMachine: false,
      linkLimitGBps: null,
    });
    expect(statuses(checks)).toEqual({
      'physical.devices': 'info',
      'physical.match': 'info',
      'physical.link.0000-83-00-0': 'warn',
      'physical.numa.0000-83-00-0': 'warn',
    });
    expect(checks.find((c) => c.id === 'physical.numa.0000-83-00-0')?.reason).toMatch(/numactl --cpunodebind=1 --membind=1/);
    // The same copy with the adapter known (an AMD accelerator) and the uplink read again under load at x16: healthy.
    const adapter = { backend: 'webgpu', vendor: 'amd', name: 'amd-instinct-mi210', isSoftware: false, pciBusId: null, cudaGpu: false };
    const loaded = new Map([
      ['0000:81:00.0', { speedText: g4, gts: 16, width: 16 }],
      ['0000:80:03.0', { speedText: g4, gts: 16, width: 16 }],
    ]);
    expect(judgeMachine(reading, adapter, loaded).verdict).toMatchObject({ match: 'matched', links: [{ verdict: 'healthy' }], linkLimitGBps: GEN4_X16 });
  });
});

describe('the link read again under load', () => {
  const temp = tempFolder('gtp-sysfs-load-');

  it('an idle Gen1 reading (power saving) that retrains to Gen4 under load is healthy; the best reading per hop is kept', async () => {
    const dir = temp.path;
    const sys = join(dir, 'sys');
    const rp = 'pci0000:00/0000:00:01.0';
    const gpu = `${rp}/0000:01:00.0`;
    const idle: [string, number] = ['2.5 GT/s PCIe', 16];
    await writeFunction(sys, rp, { class: '0x060400', vendor: '0x8086', device: '0xa70d', cur: idle, max: ['16.0 GT/s PCIe', 16] });
    await writeFunction(sys, gpu, { class: '0x030000', vendor: '0x10de', device: '0x2684', cur: idle, max: ['16.0 GT/s PCIe', 16], numa: [-1, '0-15'] });
    const reading = readMachine(resolveMachineRoot(dir));
    const adapter = { backend: 'webgpu', vendor: 'nvidia', name: 'nvidia-geforce-rtx-4090', isSoftware: false, pciBusId: null, cudaGpu: false };
    // At idle: degraded, but only a warning (NVIDIA lowers the link when not in use).
    const atIdle = judgeMachine(reading, adapter);
    expect(atIdle.verdict.links[0]).toMatchObject({ verdict: 'degraded', currentGBps: 4 });
    expect(atIdle.checks.find((c) => c.id === 'physical.link.0000-01-00-0')).toMatchObject({ status: 'warn', reason: expect.stringMatching(/read at idle/) });

    const sampler = new LinkSampler(hopsToWatch(reading.devices, matchAdapter(adapter, reading.devices)));
    const stop = sampler.start(5);
    // The uploads begin: both ends of the link retrain to 16.0 GT/s; then it idles down again before the last sample.
    for (const path of [rp, gpu]) await writeFile(join(sys, 'devices', path, 'current_link_speed'), '16.0 GT/s PCIe\n');
    await new Promise((r) => setTimeout(r, 30));
    for (const path of [rp, gpu]) await writeFile(join(sys, 'devices', path, 'current_link_speed'), '2.5 GT/s PCIe\n');
    stop();
    expect(sampler.samples).toBeGreaterThanOrEqual(3);
    const underLoad = sampler.readings()!;
    expect(underLoad.get('0000:01:00.0')).toEqual({ speedText: '16.0 GT/s PCIe', gts: 16, width: 16 });
    const loaded = judgeMachine(reading, adapter, underLoad);
    expect(loaded.verdict).toMatchObject({ match: 'matched', links: [{ verdict: 'healthy', currentGBps: GEN4_X16 }], linkLimitGBps: GEN4_X16 });
    expect(loaded.checks.find((c) => c.id === 'physical.link.0000-01-00-0')?.reason).toMatch(/healthy link \(read while uploading\)$/);
  });
});

describe('--sysfs-root', () => {
  it('refuses a folder that does not exist, and one that is not a copy of /sys, in one line', () => {
    expect(() => resolveMachineRoot('/nonexistent/sysfs')).toThrow(new MachineRootError('--sysfs-root /nonexistent/sysfs: no such directory'));
    expect(() => resolveMachineRoot(FIXTURES)).toThrow(/not a copy of \/sys$/);
  });

  it('takes a bare copy of /sys (DIR/bus/pci/devices) without process facts', () => {
    const bare = join(FIXTURES, 'numa-node-unassigned', 'sys');
    expect(resolveMachineRoot(bare)).toEqual({ sys: bare, proc: null, isCopy: true, recorded: null });
  });
});

describe("this machine's /sys, read for real", () => {
  it('reads every display and accelerator function there is, each with a path ending at a root port', () => {
    const reading = readMachine(LIVE_ROOT);
    for (const device of reading.devices) {
      expect(['display', 'accelerator']).toContain(device.kind);
      expect(device.hops[0]!.bdf).toBe(device.bdf);
      expect(dirname(device.hops[device.hops.length - 1]!.dir)).toMatch(/\/pci[0-9a-f]{4}:[0-9a-f]{2}$/);
    }
    // A software adapter (lavapipe, as on the CI machines): matched to no PCI function, its limit is host memory.
    const lavapipe = { backend: 'webgpu', vendor: 'mesa', name: 'llvmpipe-llvm-15-0-6-256-bits-', isSoftware: true, pciBusId: null, cudaGpu: false };
    const { verdict, checks } = judgeMachine(reading, lavapipe);
    expect(verdict.match).toBe('host');
    expect(verdict.linkLimitGBps).toBeNull();
    const match = checks.find((c) => c.id === 'physical.match')!;
    if (reading.devices.length === 0)
      expect(match).toEqual({ id: 'physical.match', status: 'info', reason: expect.stringMatching(/its limit is the host's memory copy bandwidth/) });
    else expect(match.status).toBe('warn');
    expect(reading.processStatus).toMatch(/^Cpus_allowed_list:/m);
  });
});
