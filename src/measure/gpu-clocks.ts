import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { readText } from '../base/regular-file.js';
import { join } from 'node:path';

/**
 * The GPU's clocks where the machine tells them (issue 35): read before and after a scenario's
 * pairs, as information beside the host-state probe. An idle GPU clocks down (the H200 of
 * 2026-12-04 idled at 345 MHz SM and boosted to 1,980 MHz, ../shared/gpu/h200-2026-12-04/
 * nvidia-smi.txt), so a short process may time part of its pairs before the clock rises.
 * Information first: nothing adjusts for it until a calibration shows that helps.
 */

// The reading's type and its words are host-free (results/metrics.ts, the browser run): their own file.
export { type GpuClocks, gpuClocksDetail } from './gpu-clocks-detail.js';
import type { GpuClocks } from './gpu-clocks-detail.js';

/**
 * `nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits`: one line per
 * GPU, "1980, 3201". The first GPU's, and how many there were; null when not that shape
 * ("[N/A]" under vGPU, an error text).
 */
export function parseNvidiaSmiClocks(text: string): { smMHz: number; memMHz: number; gpus: number } | null {
  const lines = text.trim().split('\n').filter(Boolean);
  const m = /^\s*(\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*$/.exec(lines[0] ?? '');
  return m ? { smMHz: Number(m[1]), memMHz: Number(m[2]), gpus: lines.length } : null;
}

/**
 * amdgpu's pp_dpm_sclk / pp_dpm_mclk: one line per DPM level, the current one marked '*'
 * ("1: 1980Mhz *"; kernel docs, amdgpu "pp_dpm_*"). Its MHz, or null when no level is marked.
 */
export function parseDpmLevel(text: string): number | null {
  const m = /^\s*\d+:\s*(\d+)\s*Mhz\s*\*\s*$/im.exec(text);
  return m ? Number(m[1]) : null;
}

/** The drm cards under `sys` (card0, card1; not their connectors, card0-DP-1). */
function cards(sys: string): string[] {
  try {
    return readdirSync(join(sys, 'class', 'drm'))
      .filter((n) => /^card\d+$/.test(n))
      .sort();
  } catch {
    return [];
  }
}

/** Runs nvidia-smi's clock query; its stdout, or why not (not on PATH, failed, too slow). */
export type NvidiaSmi = () => { readonly stdout: string } | { readonly error: string };

const nvidiaSmi: NvidiaSmi = () => {
  try {
    const stdout = execFileSync('nvidia-smi', ['--query-gpu=clocks.sm,clocks.mem', '--format=csv,noheader,nounits'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 3000,
    });
    return { stdout };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { error: code === 'ENOENT' ? 'nvidia-smi not on PATH' : `nvidia-smi failed (${code ?? (error as Error).message.split('\n')[0]})` };
  }
};

/**
 * The GPU's clocks now: nvidia-smi (NVIDIA), else amdgpu's pp_dpm_sclk/mclk, else i915's
 * gt_act_freq_mhz (Intel) in `sys`/class/drm/card*; unavailable, with why, when none answers.
 */
export function readGpuClocks(sys = '/sys', smi: NvidiaSmi = nvidiaSmi): GpuClocks {
  const nv = smi();
  if ('stdout' in nv) {
    const parsed = parseNvidiaSmiClocks(nv.stdout);
    if (parsed)
      return {
        available: true,
        source: `nvidia-smi clocks.sm, clocks.mem${parsed.gpus > 1 ? ` (GPU 0 of ${parsed.gpus})` : ''}`,
        smMHz: parsed.smMHz,
        memMHz: parsed.memMHz,
      };
  }
  for (const card of cards(sys)) {
    const device = join(sys, 'class', 'drm', card, 'device');
    const sclk = readText(join(device, 'pp_dpm_sclk'));
    const sm = sclk === null ? null : parseDpmLevel(sclk);
    if (sm !== null) {
      const mclk = readText(join(device, 'pp_dpm_mclk'));
      return { available: true, source: `amdgpu ${card} pp_dpm_sclk/mclk`, smMHz: sm, memMHz: mclk === null ? null : parseDpmLevel(mclk) };
    }
    const act = readText(join(sys, 'class', 'drm', card, 'gt_act_freq_mhz'));
    if (act !== null && /^\d+\s*$/.test(act)) return { available: true, source: `i915 ${card} gt_act_freq_mhz`, smMHz: Number(act), memMHz: null };
  }
  const why = 'error' in nv ? nv.error : `nvidia-smi gave no clocks ('${nv.stdout.trim().split('\n')[0] ?? ''}')`;
  return { available: false, why: `${why}; no amdgpu pp_dpm_sclk or i915 gt_act_freq_mhz under ${join(sys, 'class', 'drm')}` };
}
