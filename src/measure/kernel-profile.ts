import * as tf from '@tensorflow/tfjs';

/** What tf.profile returns (not re-exported by tfjs's index). */
export type ProfileInfo = Awaited<ReturnType<typeof tf.profile>>;

/** One row of a per-kernel table, like PyTorch's key_averages(). */
export interface KernelRow {
  readonly name: string;
  readonly calls: number;
  /** Sum of the kernel's device time over its calls (ms). */
  readonly totalMs: number;
  readonly meanMs: number;
  /** Share of all kernel time in the profiled step (0..100). */
  readonly percent: number;
}

/** A top-N kernel table and what its times mean. */
export interface KernelTable {
  readonly rows: KernelRow[];
  readonly kernelCount: number;
  readonly totalKernelMs: number;
  /** What was profiled, in words. */
  readonly step: string;
  /** How kernel times were taken on this backend. */
  readonly timing: string;
}

/** Kernel records of tf.profile, reduced to what the table needs. */
export interface KernelRecord {
  readonly name: string;
  readonly kernelTimeMs: number;
}

/** Groups kernel records by name and keeps the `top` most expensive, by total time. */
export function kernelTable(records: readonly KernelRecord[], top: number, step: string, timing: string): KernelTable {
  const byName = new Map<string, { calls: number; totalMs: number }>();
  for (const r of records) {
    const entry = byName.get(r.name) ?? { calls: 0, totalMs: 0 };
    entry.calls++;
    entry.totalMs += r.kernelTimeMs;
    byName.set(r.name, entry);
  }
  const totalKernelMs = records.reduce((s, r) => s + r.kernelTimeMs, 0);
  const rows = [...byName.entries()]
    .map(([name, e]) => ({
      name,
      calls: e.calls,
      totalMs: e.totalMs,
      meanMs: e.totalMs / e.calls,
      percent: totalKernelMs > 0 ? (100 * e.totalMs) / totalKernelMs : 0,
    }))
    .sort((x, y) => y.totalMs - x.totalMs || x.name.localeCompare(y.name))
    .slice(0, top);
  return { rows, kernelCount: records.length, totalKernelMs, step, timing };
}

const TIMING_BY_BACKEND: Record<string, string> = {
  webgpu: 'GPU timestamp queries around each dispatch (each kernel gets its own pass: timing perturbs batching)',
  wasm: 'host clock around each kernel (synchronous)',
  cpu: 'host clock around each kernel (synchronous)',
  tensorflow: 'host clock around each op (TensorFlow GPU ops may still be queued)',
};

/**
 * Runs `work` under tf.profile and returns its top-`top` kernel table; `inspect` sees the raw
 * profile (its result tensors, every kernel name) and must dispose what `work` returned.
 */
export async function profileKernels(
  work: () => tf.TensorContainer,
  top: number,
  step: string,
  inspect: (info: ProfileInfo) => Promise<void>,
): Promise<KernelTable> {
  const info = await tf.profile(work);
  await inspect(info);
  const records = info.kernels.map((k) => {
    const ms = k.kernelTimeMs as number | { error: string };
    return { name: k.name, kernelTimeMs: typeof ms === 'number' ? ms : Number.NaN };
  });
  if (records.some((r) => Number.isNaN(r.kernelTimeMs))) {
    throw new Error(`tf.profile returned no kernel times on backend ${tf.getBackend()}`);
  }
  return kernelTable(records, top, step, TIMING_BY_BACKEND[tf.getBackend()] ?? 'backend-reported kernel time');
}
