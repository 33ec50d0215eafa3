import os from 'node:os';
import { Worker } from 'node:worker_threads';

// Each worker copies its slice of one shared buffer into another (TypedArray.set: a memcpy),
// once to fault the pages in, then once per 'go'. CommonJS, evaluated: no file to locate in
// the repository, the kit or dist/.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { source, target, start, end } = workerData;
const from = new Uint8Array(source, start, end - start);
const to = new Uint8Array(target, start, end - start);
to.set(from);
parentPort.on('message', (m) => {
  if (m !== 'go') return;
  to.set(from);
  parentPort.postMessage('done');
});
parentPort.postMessage('ready');
`;

const once = (worker: Worker) =>
  new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });

/** Times of one host memory copy (`bytes` between two shared buffers, one thread per slice) and the threads used. */
export interface HostCopyTimes {
  /** Milliseconds per copy of all `bytes`, one per repeat, after a warm-up. */
  readonly times: readonly number[];
  readonly threads: number;
}

/**
 * The host's own memory copy bandwidth: `bytes` (doctor: its largest upload's size, 64 or 256
 * MiB, far beyond any cache) copied between two shared buffers by one thread
 * per CPU the process may use (os.availableParallelism(), which follows the affinity mask), each
 * its own slice, as STREAM's Copy uses every core (the usual host memory check,
 * https://docs.nvidia.com/grace-perf-tuning-guide/health-checks.html). One thread alone does not
 * reach it: a driver's copy (lavapipe's, Dawn's) may use several. It is the limit of a device
 * that lives in host memory (a software adapter, the wasm heap) and the first half of a staged
 * WebGPU upload (Dawn copies into a staging buffer before the DMA). Timed from the start message
 * to the last thread done (performance.now): no device involved, nothing to sync.
 */
export async function timeHostCopy(bytes: number, reps: number, threads = os.availableParallelism()): Promise<HostCopyTimes> {
  const source = new SharedArrayBuffer(bytes);
  new Uint8Array(source).fill(0x5a);
  const target = new SharedArrayBuffer(bytes);
  const slice = Math.ceil(bytes / threads / 4096) * 4096;
  const workers: Worker[] = [];
  try {
    for (let start = 0; start < bytes; start += slice) {
      workers.push(new Worker(WORKER, { eval: true, workerData: { source, target, start, end: Math.min(bytes, start + slice) } }));
    }
    await Promise.all(workers.map(once));
    const copy = async () => {
      const done = Promise.all(workers.map(once));
      for (const w of workers) w.postMessage('go');
      await done;
    };
    await copy(); // warm-up: every thread scheduled and its slice hot in the TLB once
    const times: number[] = [];
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      await copy();
      times.push(performance.now() - t0);
    }
    return { times, threads: workers.length };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
