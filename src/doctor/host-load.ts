import os from 'node:os';

/** How busy the host is with other work when doctor starts. */
export interface HostLoad {
  /** 1-minute load average (informational: it lags, and counts blocked threads too). */
  readonly load1: number;
  readonly cores: number;
  /** Fraction of all cores' time spent by other processes over the sampling second. */
  readonly otherCpu: number;
  readonly busy: boolean;
}

/**
 * Other work above this share of the machine's CPU time makes timings unjudgeable: on a software
 * adapter the device IS the CPU (lavapipe spreads a dispatch over every core), and every upload
 * is a host memcpy. 0.3: on 2 cores, more than ~0.6 of a core busy elsewhere.
 */
export const BUSY_FRACTION = 0.3;

/** Sums the times of all cores, as os.cpus() reports them (ms since boot, by state). */
function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/** Fraction of CPU time used by other processes over `ms` (doctor itself sleeps meanwhile). */
export async function sampleOtherCpu(ms: number): Promise<number> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpuTimes();
  const total = after.total - before.total;
  return total > 0 ? Math.min(1, Math.max(0, 1 - (after.idle - before.idle) / total)) : 0;
}

/** Samples the host for one second before anything of doctor's own runs. */
export async function measureHostLoad(ms = 1000): Promise<HostLoad> {
  const otherCpu = await sampleOtherCpu(ms);
  return { load1: os.loadavg()[0] ?? 0, cores: os.cpus().length || 1, otherCpu, busy: otherCpu > BUSY_FRACTION };
}
