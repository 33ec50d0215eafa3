import * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../backend/types.js';
import type { WebGpuBackendInternals } from '../backend/webgpu.js';
import { webgpuOps } from '../backend/device-ops.js';
import { timeHostCopy } from '../measure/host-copy.js';
import { median } from '../measure/statistics.js';
import { qualityMetric, timeMetric, type MetricInput } from '../results/metrics.js';
import { apiName, referenceMetric } from '../results/upload-references.js';

/** Bytes per measured transfer: large enough that per-call costs vanish (the asymptotic bandwidth). */
const PROBE_BYTES = 16 * 1024 * 1024;

/** The device's measured bandwidths (bytes per ms), the inputs of its limit. */
export interface DeviceBandwidth {
  /** queue.writeBuffer into a device buffer, host to device. */
  readonly writeBytesPerMs: number;
  /** A compute shader copying 16-byte words between two device buffers: bytes read + written. */
  readonly shaderCopyBytesPerMs: number;
  /** copyBufferToBuffer within the device: bytes read + written (the copy engine's speed, no shader). */
  readonly bufferCopyBytesPerMs: number;
}

/** One measurement per device per process: bandwidth does not change between scenarios, and each probe costs ~0.5 s on lavapipe. */
const measured = new WeakMap<object, Promise<DeviceBandwidth>>();

/** Measures writeBuffer, shader-copy and copyBufferToBuffer bandwidth on webgpu (median of 9 after 2 warm-ups, 16 MiB); null elsewhere. */
export async function measureDeviceBandwidth(context: BackendContext): Promise<DeviceBandwidth | null> {
  if (!context.capabilities.hasGpuDevice) return null;
  const key = (tf.backend() as WebGpuBackendInternals).device;
  let bandwidth = measured.get(key);
  if (!bandwidth) {
    bandwidth = (async () => {
      const ops = await webgpuOps(context);
      const write = median(await ops.upload(new Uint8Array(PROBE_BYTES), 2, 9));
      // Copies read and write every byte: 2 x PROBE_BYTES of traffic.
      const shader = median(await ops.shaderCopy(PROBE_BYTES, 2, 9));
      const buffer = median(await ops.copy(PROBE_BYTES, 2, 9));
      return { writeBytesPerMs: PROBE_BYTES / write, shaderCopyBytesPerMs: (2 * PROBE_BYTES) / shader, bufferCopyBytesPerMs: (2 * PROBE_BYTES) / buffer };
    })();
    measured.set(key, bandwidth);
  }
  return bandwidth;
}

/**
 * What the device allows for one strategy: the sync floor, plus its upload bytes at the measured
 * writeBuffer bandwidth, plus one pass over `passBytes` (read + written) at the measured shader
 * copy bandwidth. A computed figure: the least a synced transfer could take on this device.
 */
export function limitMs(bandwidth: DeviceBandwidth, floorMs: number, uploadBytes: number, passBytes: number): number {
  return floorMs + uploadBytes / bandwidth.writeBytesPerMs + passBytes / bandwidth.shaderCopyBytesPerMs;
}

/** A figure computed from measured ones, said so in its source. */
const computed = (m: MetricInput): MetricInput => Object.assign(m, { source: 'computed' as const });

const gbPerS = (bytesPerMs: number) => `${(bytesPerMs / 1e6).toFixed(2)} GB/s`;

/** What each limit rests on, for the figures' detail. */
function bandwidthDetail(b: DeviceBandwidth): string {
  return `writeBuffer ${gbPerS(b.writeBytesPerMs)}, shader copy ${gbPerS(b.shaderCopyBytesPerMs)}, copyBufferToBuffer ${gbPerS(b.bufferCopyBytesPerMs)} (read + written), each measured on this device on 16 MiB, median of 9`;
}

/** A strategy's device cost: bytes it uploads, and bytes its device pass reads + writes (0: no pass). */
export interface DeviceCost {
  readonly id: string;
  readonly uploadBytes: number;
  readonly passBytes: number;
}

/** The limit of each strategy as a stage metric (computed), for the stage table's `limit` column. */
export function limitMetrics(prefix: string, bandwidth: DeviceBandwidth, floorMs: number, costs: readonly DeviceCost[]): MetricInput[] {
  return costs.map((s) =>
    computed(
      timeMetric(`${prefix}.stage-ms.limit.${s.id}`, limitMs(bandwidth, floorMs, s.uploadBytes, s.passBytes), 1, {
        detail: `computed: sync floor ${floorMs.toPrecision(3)} ms + ${s.uploadBytes} B at writeBuffer speed + a pass over ${s.passBytes} B at shader-copy speed; ${bandwidthDetail(bandwidth)}`,
        labels: { table: 'stages', group: prefix, strategy: s.id, stage: 'limit' },
        // Computed from the device's rates: what the code could reach, never judged or exported as a benchmark.
        direction: 'info',
      }),
    ),
  );
}

/**
 * A device pass's throughput against the device's own copies: (bytes read + written) / its GPU
 * time, as a fraction of the shader copy's and of copyBufferToBuffer's. 1 = as fast as memory
 * allows; far below = the kernel is bound by its arithmetic or by dispatch.
 */
export function kernelBandwidthMetrics(prefix: string, bandwidth: DeviceBandwidth, cost: DeviceCost, kernelMs: number): MetricInput[] {
  const bytesPerMs = cost.passBytes / kernelMs;
  const labels = (of: string) => ({ table: 'kernel-bandwidth', group: prefix, strategy: cost.id, quantity: `fraction-of-${of}` });
  const what = `${cost.id}'s device pass: ${cost.passBytes} B read + written in ${kernelMs.toPrecision(3)} ms of GPU time (timestamp queries) = ${gbPerS(bytesPerMs)}`;
  return [
    computed(
      qualityMetric(
        `${prefix}.kernel-bandwidth.${cost.id}.fraction-of-shader-copy`,
        bytesPerMs / bandwidth.shaderCopyBytesPerMs,
        {},
        {
          detail: `computed from measured figures: ${what}, over the shader copy's; ${bandwidthDetail(bandwidth)}; informational`,
          labels: labels('shader-copy'),
        },
      ),
    ),
    computed(
      qualityMetric(
        `${prefix}.kernel-bandwidth.${cost.id}.fraction-of-buffer-copy`,
        bytesPerMs / bandwidth.bufferCopyBytesPerMs,
        {},
        {
          detail: `computed from measured figures: ${what}, over copyBufferToBuffer's; ${bandwidthDetail(bandwidth)}; informational`,
          labels: labels('buffer-copy'),
        },
      ),
    ),
  ];
}

// The host copy a run times beside its limits: doctor's default largest upload (256 MiB, beyond
// any cache: a 64 MiB copy can run from a large L3) and its --quick repeats (5).
const HOST_COPY_BYTES = 256 * 1024 * 1024;
const HOST_COPY_REPS = 5;

/** The machine references a run measures itself (results/upload-references.ts): the host memory copy, GB/s. */
export interface RunReferences {
  readonly hostCopyGBps: number;
  readonly hostCopyThreads: number;
}

/** One host copy per process: the host does not change between scenarios. */
let hostCopy: Promise<RunReferences> | null = null;

/**
 * The host memory copy on a hardware adapter (issue 35: a run on a real GPU records its machine
 * bounds); null on a software adapter or a host backend, whose uploads are judged by doctor's
 * efficiency line. The PCIe link is not read here: sysfs is doctor's (a kit run's doctor reports
 * give it to `gtp report`).
 */
export async function measureRunReferences(context: BackendContext): Promise<RunReferences | null> {
  if (!context.capabilities.hasGpuDevice || !context.adapter || context.adapter.isSoftware) return null;
  hostCopy ??= timeHostCopy(HOST_COPY_BYTES, HOST_COPY_REPS).then(({ times, threads }) => ({
    hostCopyGBps: HOST_COPY_BYTES / median(times) / 1e6,
    hostCopyThreads: threads,
  }));
  return hostCopy;
}

/**
 * A stage group's upload references as metrics: the API's rate its limit rests on (writeBuffer,
 * measured) and, on a hardware adapter, the host memory copy (measured); information, no bound.
 */
export function referenceMetrics(group: string, bandwidth: DeviceBandwidth, backend: string, machine: RunReferences): MetricInput[] {
  return [
    referenceMetric(
      group,
      { kind: 'api-upload', gbps: bandwidth.writeBytesPerMs / 1e6, name: `${apiName(backend)} upload rate`, source: 'measured' },
      `the rate this group's limit rests on: writeBuffer of 16 MiB into a device buffer, median of 9, synced; ${bandwidthDetail(bandwidth)}`,
    ),
    referenceMetric(
      group,
      { kind: 'host-copy', gbps: machine.hostCopyGBps, name: 'the host memory copy', source: 'measured' },
      `TypedArray.set (memcpy) of ${HOST_COPY_BYTES / 1024 / 1024} MiB between two host buffers, ${machine.hostCopyThreads} threads (one per allowed CPU), median of ${HOST_COPY_REPS} after a warm-up, once per process; performance.now from the start message to the last thread done`,
    ),
  ];
}
