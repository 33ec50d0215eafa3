import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Diagnostics } from '../results/schema.js';

/** The aggregate CPU line of /proc/stat: total and steal ticks, or null off Linux. */
export function cpuTicks(): { total: number; steal: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal guest guest_nice (proc(5))
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    if (fields.length < 8 || fields.some((x) => !Number.isFinite(x))) return null;
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { total, steal: fields[7]! };
  } catch {
    return null;
  }
}

/** Diagnostics of one run: the test process's resource usage plus the machine's steal and load over the run. */
export function runDiagnostics(usage: NodeJS.ResourceUsage | null, start: { ticks: ReturnType<typeof cpuTicks>; at: number }): Diagnostics {
  const end = cpuTicks();
  const stealFraction = start.ticks && end && end.total > start.ticks.total ? (end.steal - start.ticks.steal) / (end.total - start.ticks.total) : null;
  return {
    cpuUserMs: (usage?.userCPUTime ?? 0) / 1000,
    cpuSystemMs: (usage?.systemCPUTime ?? 0) / 1000,
    involuntaryContextSwitches: usage?.involuntaryContextSwitches ?? 0,
    wallMs: performance.now() - start.at,
    stealFraction,
    loadAverage: loadavg()[0] ?? 0,
  };
}
