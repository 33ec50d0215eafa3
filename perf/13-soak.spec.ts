// Article section 13 (memory monitoring, clearing unused tensors): many batches through both
// strategies must leave memory flat. 1,000 batches each at --scale full, 150 at quick (the gates' perf run).
// Asserted: 0 leaked tensors, the same device bytes in use after as before (tfjs's buffer pool
// may keep freed buffers: allocated-with-pool bytes are recorded, not asserted), and JS heap
// growth after a full GC below HEAP_BOUND. The figures go to the run record.
import * as tf from '@tensorflow/tfjs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BatchLoader,
  LeakCheck,
  memorySnapshot,
  bytesMetric,
  exactMetric,
  qualityMetric,
  recordMetrics,
  sendSyncedBatches,
  useBackend,
  useMnist,
  useSizes,
  ARTICLE_BATCH,
  cpuNormalize,
  deviceNormalize,
  type BackendContext,
  type Batch,
  type TransferStrategy,
} from 'gpu-transfer-perf';

/**
 * Largest JS heap growth accepted over the soak, after a full GC: 16 MiB, about 80 of the
 * 200,704-byte float32 batches; a leak of one batch buffer per step would pass it within
 * ~80 steps and is far beyond at 150 (quick) or 1,000 (full).
 */
const HEAP_BOUND = 16 * 1024 * 1024;
// Batches sent before the "before" reading: shader compilation, buffer pool, JIT.
const WARMUP = 20;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Heap bytes in use after a full collection (twice: finalizers may free more). */
function heapAfterGc(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

let context: BackendContext;
let batches: Batch[];

beforeAll(async () => {
  context = await useBackend();
  batches = [...new BatchLoader(await useMnist(), { ...ARTICLE_BATCH, dropLast: true }).epoch(0)];
});

/** Sends `count` batches from `offset`, each synced and disposed (sendSyncedBatches). */
const send = (strategy: TransferStrategy, count: number, offset: number) => sendSyncedBatches(context, strategy, batches, count, offset);

describe('memory stays flat under load (section 13)', () => {
  for (const id of ['cpu-normalize', 'device-normalize'] as const) {
    it(`${id}: no tensors, device bytes or heap left behind after many batches`, async ({ task }) => {
      const strategy = id === 'cpu-normalize' ? cpuNormalize(context) : deviceNormalize();
      const count = useSizes().soakBatches;
      await send(strategy, WARMUP, 0);
      const leaks = new LeakCheck();
      const before = memorySnapshot();
      const heapBefore = heapAfterGc();
      await send(strategy, count, WARMUP);
      const after = memorySnapshot();
      const heapGrowth = heapAfterGc() - heapBefore;
      const pooled = (tf.memory() as tf.MemoryInfo & { numBytesAllocatedInGPU?: number }).numBytesAllocatedInGPU;

      expect(leaks.leakedTensors()).toBe(0);
      expect(after.numBytes).toBe(before.numBytes);
      if (after.numBytesInGPU !== null) expect(after.numBytesInGPU).toBe(before.numBytesInGPU);
      expect(heapGrowth).toBeLessThan(HEAP_BOUND);

      const labels = { strategy: id };
      const how = `over ${count} synced [64,28,28,1] batches after ${WARMUP} warm-up batches`;
      await recordMetrics(
        task,
        exactMetric(`soak.leaked-tensors.${id}`, leaks.leakedTensors(), 'tensors', 'measured', { detail: `tf.memory().numTensors change ${how}`, labels }),
        bytesMetric(`soak.tensor-bytes-growth.${id}`, after.numBytes - before.numBytes, 'measured', { detail: `tf.memory().numBytes change ${how}`, labels }),
        ...(after.numBytesInGPU !== null && before.numBytesInGPU !== null
          ? [
              bytesMetric(`soak.device-bytes-growth.${id}`, after.numBytesInGPU - before.numBytesInGPU, 'measured', {
                detail: `tf.memory().numBytesInGPU (device buffers in use) change ${how}`,
                labels,
              }),
            ]
          : []),
        qualityMetric(
          `soak.heap-growth.${id}`,
          heapGrowth,
          { max: HEAP_BOUND },
          {
            unit: 'B',
            detail: `process.memoryUsage().heapUsed after two full GCs, change ${how}; allocated device bytes incl. the buffer pool at the end: ${pooled ?? 'n/a on this backend'}`,
            labels,
          },
        ),
      );
    });
  }
});
