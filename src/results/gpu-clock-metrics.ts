import type { GpuClocks } from '../measure/gpu-clocks.js';
import type { MetricInput } from './metrics.js';

/** When a clock was read: before a scenario's pairs (warm-up included) and after the last. */
type When = 'before' | 'after';

/**
 * The GPU's clocks read before and after `of`'s pairs (measure/gpu-clocks.ts), as information
 * beside its host-state probe: quality figures in MHz with no bound, labels { role: 'gpu-clock',
 * of, when, clock }. A reading that is unavailable records no figure (never a 0 MHz); the probe's
 * detail says why (gpuClocksDetail).
 */
export function gpuClockMetrics(of: string, readings: Readonly<Record<When, GpuClocks>>): MetricInput[] {
  return (['before', 'after'] as const).flatMap((when) => {
    const r = readings[when];
    if (!r.available) return [];
    const clocks: [string, number | null][] = [
      ['sm', r.smMHz],
      ['mem', r.memMHz],
    ];
    return clocks.flatMap(([clock, mhz]): MetricInput[] =>
      mhz === null
        ? []
        : [
            {
              id: `${of}.gpu-clock.${clock}-mhz.${when}`,
              kind: 'quality',
              direction: 'info',
              value: mhz,
              unit: 'MHz',
              bound: {},
              source: 'measured',
              detail: `the GPU's ${clock === 'sm' ? 'graphics/SM' : 'memory'} clock ${when} the pairs of ${of} (${r.source}); information beside the host-state probe, never judged`,
              labels: { role: 'gpu-clock', of, when, clock },
            },
          ],
    );
  });
}
