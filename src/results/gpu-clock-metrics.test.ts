import { describe, expect, it } from 'vitest';
import { type GpuClocks, gpuClocksDetail } from '../measure/gpu-clocks.js';
import { gpuClockMetrics } from './gpu-clock-metrics.js';
import { hostProbeMetric } from './metrics.js';

const idle: GpuClocks = { available: true, source: 'nvidia-smi clocks.sm, clocks.mem', smMHz: 345, memMHz: 3201 };
const boost: GpuClocks = { available: true, source: 'nvidia-smi clocks.sm, clocks.mem', smMHz: 1980, memMHz: 3201 };
const none: GpuClocks = { available: false, why: 'nvidia-smi not on PATH; no amdgpu pp_dpm_sclk or i915 gt_act_freq_mhz under /sys/class/drm' };

describe('GPU clocks beside the host-state probe', () => {
  it('records each clock read before and after the pairs as information (MHz, no bound)', () => {
    const metrics = gpuClockMetrics('mnist-transfer.speedup', { before: idle, after: boost });
    expect(metrics.map((m) => [m.id, m.value, m.unit, m.kind, m.bound])).toEqual([
      ['mnist-transfer.speedup.gpu-clock.sm-mhz.before', 345, 'MHz', 'quality', {}],
      ['mnist-transfer.speedup.gpu-clock.mem-mhz.before', 3201, 'MHz', 'quality', {}],
      ['mnist-transfer.speedup.gpu-clock.sm-mhz.after', 1980, 'MHz', 'quality', {}],
      ['mnist-transfer.speedup.gpu-clock.mem-mhz.after', 3201, 'MHz', 'quality', {}],
    ]);
    expect(metrics[0]!.labels).toEqual({ role: 'gpu-clock', of: 'mnist-transfer.speedup', when: 'before', clock: 'sm' });
    expect(gpuClocksDetail({ before: idle, after: boost })).toBe(
      'GPU clocks before -> after the pairs: SM 345 -> 1980 MHz, memory 3201 -> 3201 MHz (nvidia-smi clocks.sm, clocks.mem)',
    );
  });

  it('records nothing, not a 0, where the machine cannot tell, and says so in the probe', () => {
    expect(gpuClockMetrics('dtypes.64x1x28x28', { before: none, after: none })).toEqual([]);
    const probe = hostProbeMetric('dtypes.64x1x28x28', [0.05, 0.06, 0.07], { before: none, after: none });
    expect(probe.detail).toMatch(
      /; GPU clocks: unavailable \(nvidia-smi not on PATH; no amdgpu pp_dpm_sclk or i915 gt_act_freq_mhz under \/sys\/class\/drm\)$/,
    );
    // Without readings asked for, the probe's detail is as before.
    expect(hostProbeMetric('dtypes.64x1x28x28', [0.05]).detail).not.toMatch(/GPU clocks/);
  });
});
