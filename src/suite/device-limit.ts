import type { BackendContext } from '../backend/types.js';
import { webgpuOps } from '../doctor/device-ops.js';
import { median } from '../measure/statistics.js';
import { timeMetric, type MetricInput } from '../results/metrics.js';

/** Bytes per measured transfer: large enough that per-call costs vanish (the asymptotic bandwidth). */
const PROBE_BYTES = 16 * 1024 * 1024;

/** The device's measured bandwidths (bytes per ms) and sync floor, the inputs of its limit. */
export interface DeviceBandwidth {
  /** queue.writeBuffer into a device buffer, host to device. */
  readonly writeBytesPerMs: number;
  /** copyBufferToBuffer within the device: read + write of each byte, a proxy for one shader pass. */
  readonly copyBytesPerMs: number;
}

/** Measures writeBuffer and on-device copy bandwidth on webgpu (median of 9 after 2 warm-ups); null elsewhere. */
export async function measureDeviceBandwidth(context: BackendContext): Promise<DeviceBandwidth | null> {
  if (context.name !== 'webgpu') return null;
  const ops = await webgpuOps(context);
  const write = median(await ops.upload(new Uint8Array(PROBE_BYTES), 2, 9));
  // A copy reads and writes every byte: 2 x PROBE_BYTES of traffic.
  const copy = median(await ops.copy(PROBE_BYTES, 2, 9));
  return { writeBytesPerMs: PROBE_BYTES / write, copyBytesPerMs: (2 * PROBE_BYTES) / copy };
}

/**
 * What the device allows for one strategy: the sync floor, plus its upload bytes at the measured
 * writeBuffer bandwidth, plus one pass over `passBytes` (read + written) at the measured copy
 * bandwidth. A computed figure: the least a synced transfer could take on this device.
 */
export function limitMs(bandwidth: DeviceBandwidth, floorMs: number, uploadBytes: number, passBytes: number): number {
  return floorMs + uploadBytes / bandwidth.writeBytesPerMs + passBytes / bandwidth.copyBytesPerMs;
}

/** The limit of each strategy as a stage metric (computed), for the stage table's `limit` column. */
export function limitMetrics(
  prefix: string,
  bandwidth: DeviceBandwidth,
  floorMs: number,
  strategies: ReadonlyArray<{ id: string; uploadBytes: number; passBytes: number }>,
): MetricInput[] {
  const gb = (bytesPerMs: number) => `${(bytesPerMs / 1e6).toFixed(2)} GB/s`;
  return strategies.map((s) =>
    Object.assign(
      timeMetric(`${prefix}.stage-ms.limit.${s.id}`, limitMs(bandwidth, floorMs, s.uploadBytes, s.passBytes), 1, {
        detail: `computed: sync floor ${floorMs.toPrecision(3)} ms + ${s.uploadBytes} B at writeBuffer ${gb(bandwidth.writeBytesPerMs)} + a pass over ${s.passBytes} B at copy ${gb(bandwidth.copyBytesPerMs)} (both measured on this device, 16 MiB)`,
        labels: { table: 'stages', strategy: s.id, stage: 'limit' },
      }),
      { source: 'computed' as const },
    ),
  );
}
