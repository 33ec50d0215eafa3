import { mkdir, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { type NvidiaSmi, parseDpmLevel, parseNvidiaSmiClocks, readGpuClocks } from './gpu-clocks.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const noSmi: NvidiaSmi = () => ({ error: 'nvidia-smi not on PATH' });

describe('GPU clock readings', () => {
  it("parses nvidia-smi's csv (noheader, nounits): the first GPU's clocks and how many GPUs", () => {
    // The H200's boost clocks (../shared/gpu/h200-2026-12-04/nvidia-smi.txt): 1980 MHz SM, 3201 MHz memory.
    expect(parseNvidiaSmiClocks('1980, 3201\n')).toEqual({ smMHz: 1980, memMHz: 3201, gpus: 1 });
    expect(parseNvidiaSmiClocks('345, 3201\n1980, 3201\n')).toEqual({ smMHz: 345, memMHz: 3201, gpus: 2 });
    expect(parseNvidiaSmiClocks('[N/A], [N/A]\n')).toBeNull();
    expect(parseNvidiaSmiClocks('')).toBeNull();
  });

  it("parses amdgpu's DPM levels: the one marked '*'", () => {
    expect(parseDpmLevel('0: 500Mhz\n1: 1200Mhz\n2: 2400Mhz *\n')).toBe(2400);
    expect(parseDpmLevel('0: 500Mhz\n1: 1200Mhz\n')).toBeNull();
  });

  const temp = tempFolder('gtp-clocks-');

  it('reads nvidia-smi first, then amdgpu and i915 sysfs, else says why none is available (never 0)', async () => {
    expect(readGpuClocks(temp.path, () => ({ stdout: '1980, 3201\n' }))).toEqual({
      available: true,
      source: 'nvidia-smi clocks.sm, clocks.mem',
      smMHz: 1980,
      memMHz: 3201,
    });
    expect(readGpuClocks(temp.path, noSmi)).toEqual({
      available: false,
      why: `nvidia-smi not on PATH; no amdgpu pp_dpm_sclk or i915 gt_act_freq_mhz under ${temp.at('class', 'drm')}`,
    });
    await mkdir(temp.at('class/drm/card0-DP-1'), { recursive: true });
    await mkdir(temp.at('class/drm/card1/device'), { recursive: true });
    await writeFile(temp.at('class/drm/card1/device/pp_dpm_sclk'), '0: 500Mhz\n1: 2400Mhz *\n');
    await writeFile(temp.at('class/drm/card1/device/pp_dpm_mclk'), '0: 96Mhz\n1: 1000Mhz *\n');
    expect(readGpuClocks(temp.path, noSmi)).toEqual({ available: true, source: 'amdgpu card1 pp_dpm_sclk/mclk', smMHz: 2400, memMHz: 1000 });
    await mkdir(temp.at('class/drm/card0'), { recursive: true });
    await writeFile(temp.at('class/drm/card0/gt_act_freq_mhz'), '1650\n');
    expect(readGpuClocks(temp.path, noSmi)).toEqual({ available: true, source: 'i915 card0 gt_act_freq_mhz', smMHz: 1650, memMHz: null });
  });

  it('on this machine (no GPU driver here, or one that tells): a reading or its reason, never a made-up figure', () => {
    const clocks = readGpuClocks();
    if (clocks.available) expect(clocks.smMHz).toBeGreaterThan(0);
    else expect(clocks.why).toMatch(/nvidia-smi/);
  });
});
