// Article section 13 in a browser page (memory monitoring, clearing unused tensors): many MNIST
// batches through both strategies must leave the device's memory flat. 150 batches each in npm
// test, 1,000 at --scale full, as in Node (perf/13-soak.spec.ts). Asserted: 0 leaked tensors and
// the same tensor and device bytes in use after as before (tfjs's buffer pool may keep freed
// buffers: not counted as in use). The JS heap is not judged here: a page cannot force a full
// garbage collection (Node's soak can, and bounds its growth), so its figure would be the
// collector's timing, not a leak.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ARTICLE_BATCH,
  BatchLoader,
  bytesMetric,
  cpuNormalize,
  deviceNormalize,
  exactMetric,
  hasPackedKernel,
  int32DeviceNormalize,
  LeakCheck,
  memorySnapshot,
  recordMetrics,
  sendSyncedBatches,
  useBackend,
  useMnist,
  useSizes,
  type BackendContext,
  type Batch,
  type TransferStrategy,
} from 'gpu-transfer-perf/browser';

// Batches sent before the "before" reading: shader compilation, buffer pool, JIT.
const WARMUP = 20;

let context: BackendContext;
let batches: Batch[];

beforeAll(async () => {
  context = await useBackend();
  batches = [...new BatchLoader(await useMnist(), { ...ARTICLE_BATCH, dropLast: true }).epoch(0)];
});

/** Sends `count` batches from `offset`, each synced and disposed (sendSyncedBatches). */
const send = (strategy: TransferStrategy, count: number, offset: number) => sendSyncedBatches(context, strategy, batches, count, offset);

describe('memory stays flat under load, in the browser (section 13)', () => {
  for (const id of ['cpu-normalize', 'device-normalize'] as const) {
    it(`${id}: no tensors or device bytes left behind after many batches`, async ({ task }) => {
      // Where there is no packed uint8 kernel (webgl), raw pixels go up as an int32 tensor.
      const strategy = id === 'cpu-normalize' ? cpuNormalize(context) : hasPackedKernel() ? deviceNormalize() : int32DeviceNormalize(context);
      const count = useSizes().soakBatches;
      await send(strategy, WARMUP, 0);
      const leaks = new LeakCheck();
      const before = memorySnapshot();
      await send(strategy, count, WARMUP);
      const after = memorySnapshot();

      expect(leaks.leakedTensors()).toBe(0);
      expect(after.numBytes).toBe(before.numBytes);
      if (after.numBytesInGPU !== null) expect(after.numBytesInGPU).toBe(before.numBytesInGPU);

      const labels = { strategy: id };
      const how = `over ${count} synced [64,28,28,1] batches after ${WARMUP} warm-up batches, on ${context.name} in the page`;
      await recordMetrics(
        task,
        exactMetric(`soak.leaked-tensors.${id}`, leaks.leakedTensors(), 'tensors', 'measured', { detail: `tf.memory().numTensors change ${how}`, labels }),
        bytesMetric(`soak.tensor-bytes-growth.${id}`, after.numBytes - before.numBytes, 'measured', { detail: `tf.memory().numBytes change ${how}`, labels }),
        ...(after.numBytesInGPU !== null && before.numBytesInGPU !== null
          ? [
              bytesMetric(`soak.device-bytes-growth.${id}`, after.numBytesInGPU - before.numBytesInGPU, 'measured', {
                detail: `tf.memory().numBytesInGPU (device buffers or textures in use) change ${how}`,
                labels,
              }),
            ]
          : []),
      );
    });
  }
});
