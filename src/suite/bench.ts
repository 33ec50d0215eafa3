import type * as tf from '@tensorflow/tfjs';
import { makeResident } from '../backend/synced-transfers.js';
import type { BackendContext } from '../backend/types.js';

/**
 * tinybench options for the perf/*.bench.ts files: a second of samples after warm-up (pipeline
 * compilation, buffer pools), enough for a stable p99 on a software device.
 */
export const BENCH_OPTIONS = { time: 1000, warmupTime: 200, warmupIterations: 10 } as const;

/** A bench's name carries its bytes per operation, so the bench reporter can print bytes/s. */
export function benchName(label: string, bytesPerOp: number): string {
  return `${label} [${bytesPerOp} B/op]`;
}

/** The bytes per operation in a name made by benchName, or null. */
export function bytesPerOpOf(name: string): number | null {
  const m = / \[(\d+) B\/op\]$/.exec(name);
  return m ? Number(m[1]) : null;
}

/** A bench body that sends the next input and stops only after the output is resident and the device finished (no enqueue-only timing, no lazy upload left out). */
export function syncedBench<T>(context: BackendContext, inputs: readonly T[], send: (input: T) => tf.Tensor): () => Promise<void> {
  let i = 0;
  return async () => {
    const out = send(inputs[i++ % inputs.length]!);
    await makeResident(context, [out]);
    out.dispose();
  };
}
