import { describe, expect, it } from 'vitest';
import { allowedCpusFromStatus, cpuOverlap, parseCpuList } from './cpulist.js';
import { type Efficiency, efficiencyBand, judgeEfficiency, uploadPlateau } from './efficiency.js';
import { normalizeBusId, pciVendorId } from './match.js';
import { formatLink, linkGBps, linkReading, parseLinkSpeed } from './pcie.js';
import { deviceKind, markCardInternal } from './sysfs.js';
import type { Figure } from '../schema.js';

describe('PCIe link rates (one direction, after line encoding)', () => {
  it('per generation at x16: the facts table (4.0, 8.0, 15.75, 31.5, 63.0; Gen6 118 after FLIT)', () => {
    const x16 = (speed: string) => linkGBps(linkReading(`${speed} GT/s PCIe\n`, '16\n'));
    expect([x16('2.5'), x16('5.0'), x16('8.0'), x16('16.0'), x16('32.0'), x16('64.0')].map((v) => v!.toFixed(2))).toEqual([
      '4.00',
      '8.00',
      '15.75',
      '31.51',
      '63.02',
      '118.00',
    ]);
  });

  it("parse the kernel's strings, old and new; 'Unknown' and absent files are unknown, not zero", () => {
    expect(parseLinkSpeed('8 GT/s')).toBe(8);
    expect(parseLinkSpeed('5.0 GT/s PCIe')).toBe(5);
    expect(linkReading('Unknown\n', '0\n')).toEqual({ speedText: 'Unknown', gts: null, width: null });
    expect(linkGBps(linkReading(null, null))).toBeNull();
    expect(linkGBps(linkReading('128.0 GT/s PCIe\n', '16\n'))).toBeNull(); // no source for Gen7 here
    expect(formatLink(linkReading('8.0 GT/s PCIe\n', '8\n'))).toBe('Gen3 x8 (8.0 GT/s, 7.9 GB/s)');
  });

  it('classes 0x03xxxx and 0x12xxxx are display and accelerator; bridges and others are neither', () => {
    expect(['0x030000\n', '0x030200\n', '0x038000\n', '0x120000\n', '0x060400\n', '0x020000\n'].map(deviceKind)).toEqual([
      'display',
      'display',
      'display',
      'accelerator',
      null,
      null,
    ]);
  });

  it("mark the links below a card's own upstream port as internal, never the root port", () => {
    const hop = (bdf: string, vendor: string) => ({
      bdf,
      vendor,
      device: null,
      classCode: null,
      current: linkReading(null, null),
      max: linkReading(null, null),
      dir: bdf,
    });
    const internal = (vendors: string[]) => markCardInternal(vendors.map((v, i) => hop(String(i), v))).map((h) => h.internal);
    expect(internal(['0x8086', '0x8086', '0x8086', '0x1022'])).toEqual([true, true, false, false]);
    expect(internal(['0x8086', '0x8086'])).toEqual([false, false]); // an Intel GPU in an Intel root port
    expect(internal(['0x10de', '0x1000', '0x1000', '0x8086'])).toEqual([false, false, false, false]);
    expect(internal(['0x10de'])).toEqual([false]);
  });
});

describe('CPU lists and adapters', () => {
  it("read the kernel's list format and the status file's Cpus_allowed_list", () => {
    expect(parseCpuList('0-2,8,10-11\n')).toEqual([0, 1, 2, 8, 10, 11]);
    expect(parseCpuList('0-x')).toBeNull();
    expect(allowedCpusFromStatus('Cpus_allowed:\tf\nCpus_allowed_list:\t0-3\n')).toEqual({ text: '0-3', cpus: [0, 1, 2, 3] });
    expect([cpuOverlap([0, 1], [0, 1, 2]), cpuOverlap([4], [0, 1]), cpuOverlap([0, 4], [0, 1])]).toEqual(['within', 'disjoint', 'partly']);
  });

  it("map Dawn's vendor names to PCI vendor ids (google/dawn gpu_info.json)", () => {
    expect(['nvidia', 'amd', 'intel', '0x10DE', 'mesa'].map(pciVendorId)).toEqual(['0x10de', '0x1002', '0x8086', '0x10de', null]);
    expect(normalizeBusId('18:00.0')).toBe('0000:18:00.0');
  });
});

const upload = (mib: number, value: number): Figure => ({
  id: `upload.${mib}mib`,
  label: `host->device ${mib} MiB`,
  value,
  unit: 'GB/s',
  n: 5,
  detail: 'test',
});
const hostCopy: Figure = { id: 'host-copy.64mib', label: 'host memory copy 64 MiB', value: 10, unit: 'GB/s', n: 5, detail: 'test' };

describe('efficiency', () => {
  it('bands: >= 0.75 healthy, 0.50-0.75 low, below underperforming (facts section 1)', () => {
    expect([0.9, 0.75, 0.6, 0.5, 0.49].map(efficiencyBand)).toEqual(['healthy', 'healthy', 'low', 'low', 'underperforming']);
  });

  it('the plateau is the largest size, reached when the size before it is within 15%', () => {
    expect(uploadPlateau([upload(1, 3), upload(16, 9), upload(64, 10)])).toMatchObject({ gbps: 10, reached: true });
    expect(uploadPlateau([upload(16, 5), upload(64, 10)])).toMatchObject({ gbps: 10, reached: false });
    // A cache-sized upload faster than the largest one: the largest still decides (it matches the host copy's size).
    expect(uploadPlateau([upload(16, 16), upload(64, 12)])).toMatchObject({ gbps: 12, reached: false });
    expect(uploadPlateau([hostCopy])).toBeNull();
  });

  it('a software adapter is judged against the measured host memory copy, and says so', () => {
    const { efficiency, check, figure } = judgeEfficiency({
      path: 'software-webgpu',
      plateau: uploadPlateau([upload(16, 5.5), upload(64, 6)]),
      hostCopy,
      linkGBps: null,
      whyNoLink: 'the device is the CPU',
    });
    expect(efficiency).toMatchObject<Partial<Efficiency>>({
      limit: 'host-memory-copy',
      limitGBps: 10,
      measuredGBps: 6,
      fraction: 0.6,
      band: 'low',
      plateauReached: true,
    });
    expect(check.status).toBe('info');
    expect(check.reason).toMatch(
      /^efficiency 0\.60 = host->device 6\.00 GB\/s \(host->device 64 MiB, on the plateau\) \/ the host memory copy bandwidth, 10\.00 GB\/s/,
    );
    expect(figure).toMatchObject({ id: 'upload.fraction-of-limit', value: 0.6, unit: 'fraction' });
  });

  it('a WebGPU upload on a GPU is set against the link, with its staged ceiling stated', () => {
    const { efficiency, check } = judgeEfficiency({
      path: 'webgpu',
      plateau: uploadPlateau([upload(64, 9), upload(256, 9.5)]),
      hostCopy,
      linkGBps: 63,
      whyNoLink: '',
    });
    expect(efficiency).toMatchObject({ limit: 'pcie-link', limitGBps: 63, band: 'underperforming' });
    expect(check.reason).toMatch(/at most min\(link, host copy\) = 10\.00 GB\/s, 0\.16 of the link/);
    expect(check.reason).toMatch(/not applied to this path$/);
  });

  it('without a limit, or on the cpu backend, says why and gives no figure', () => {
    expect(
      judgeEfficiency({ path: 'webgpu', plateau: uploadPlateau([upload(64, 9)]), hostCopy, linkGBps: null, whyNoLink: 'the adapter is unknown' }),
    ).toMatchObject({
      efficiency: null,
      figure: null,
      check: { status: 'info', reason: expect.stringMatching(/no limit to judge host->device 9\.00 GB\/s against \(the adapter is unknown\)/) },
    });
    expect(judgeEfficiency({ path: 'cpu', plateau: null, hostCopy: null, linkGBps: null, whyNoLink: '' }).check.reason).toMatch(/not applicable/);
  });
});
