import type { Batch } from '../data/loader.js';
import { median } from '../measure/statistics.js';
import type { TransferStrategy } from '../transfer/strategies/strategies.js';

let sink = 0; // keeps the injected work observable, so it cannot be optimized away

/** Real extra work on the host: a checksum over `count` bytes, cycling through the batch. */
function checksum(bytes: Uint8Array, count: number): void {
  let s = sink;
  for (let i = 0; i < count; i++) s = (Math.imul(s, 31) + bytes[i % bytes.length]!) | 0;
  sink = s;
}

/**
 * Calibration only (npm run perf:calibrate): `strategy` doing `fraction` more real work inside
 * the timed region, a host checksum sized in this process from its own timings, the way a
 * change that slows device-normalize by that much would. `measure` times `strategy` alone.
 */
export async function withExtraWork(strategy: TransferStrategy, fraction: number, batch: Batch, measure: () => Promise<number>): Promise<TransferStrategy> {
  if (fraction <= 0) return strategy;
  const times = [];
  for (let i = 0; i < 40; i++) times.push(await measure());
  const base = median(times.slice(10));
  const n = 1 << 18;
  const perByte = median(
    Array.from({ length: 9 }, () => {
      const start = performance.now();
      checksum(batch.images, n);
      return (performance.now() - start) / n;
    }),
  );
  const count = Math.max(1, Math.round((fraction * base) / perByte));
  return {
    ...strategy,
    toDevice: (b) => {
      checksum(b.images, count);
      return strategy.toDevice(b);
    },
  };
}
