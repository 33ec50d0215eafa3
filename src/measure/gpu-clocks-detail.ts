/** A GPU clock reading (gpu-clocks.ts reads them) and its words, with no host access. */

/** What one reading found: the clocks and where they came from, or why there are none (never a made-up 0). */
export type GpuClocks =
  | { readonly available: true; readonly source: string; readonly smMHz: number; readonly memMHz: number | null }
  | { readonly available: false; readonly why: string };

/** The clocks in words, for the host-state probe's detail: 'GPU clocks before/after the pairs: SM 345 -> 1980 MHz, ...' or why unavailable. */
export function gpuClocksDetail(readings: Readonly<Record<'before' | 'after', GpuClocks>>): string {
  const { before, after } = readings;
  if (!before.available && !after.available) return `GPU clocks: unavailable (${before.why})`;
  const mhz = (r: GpuClocks, pick: 'smMHz' | 'memMHz') => (r.available && r[pick] !== null ? `${r[pick]}` : 'unavailable');
  const source = before.available ? before.source : after.available ? after.source : '';
  return `GPU clocks before -> after the pairs: SM ${mhz(before, 'smMHz')} -> ${mhz(after, 'smMHz')} MHz, memory ${mhz(before, 'memMHz')} -> ${mhz(after, 'memMHz')} MHz (${source})`;
}
