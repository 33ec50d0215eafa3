// Article section 9: memory of one batch along each path, in exact bytes.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LeakCheck,
  memorySnapshot,
  bytesMetric,
  itLeavesNoTensors,
  recordMetrics,
  useBackend,
  firstArticleBatch,
  strategyFor,
  ARTICLE_NORMALIZATION,
  normalizeOnHost,
  type BackendContext,
  type Batch,
  type MetricInput,
} from 'gpu-transfer-perf';

let context: BackendContext;
let batch: Batch;
let leaks: LeakCheck;

beforeAll(async () => {
  context = await useBackend();
  batch = await firstArticleBatch();
  leaks = new LeakCheck();
});

describe('memory usage comparison (section 9)', () => {
  it('raw batch 50,176 B (49.00 KB); CPU-normalized 200,704 B (196.00 KB)', async ({ task }) => {
    const normalized = normalizeOnHost(batch.images, ARTICLE_NORMALIZATION);
    expect(batch.images.byteLength).toBe(50_176);
    expect(normalized.byteLength).toBe(200_704);
    await recordMetrics(
      task,
      bytesMetric('memory.bytes.raw-batch', batch.images.byteLength, 'computed', { detail: 'byteLength of the uint8 [64,28,28,1] batch' }),
      bytesMetric('memory.bytes.cpu-normalized', normalized.byteLength, 'computed', { detail: 'byteLength of the host Float32Array sent by cpu-normalize' }),
    );
  });

  it('device-normalized tensor 200,704 B, by tfjs memory accounting', async ({ task }) => {
    const before = memorySnapshot();
    const out = strategyFor(context, 'device-normalize').toDevice(batch);
    await context.sync(out);
    const during = memorySnapshot();
    out.dispose();
    const after = memorySnapshot();

    expect(during.numBytes - before.numBytes).toBe(200_704);
    expect(during.numTensors - before.numTensors).toBe(1);
    expect(after.numTensors).toBe(before.numTensors);
    const metrics: MetricInput[] = [
      bytesMetric('memory.bytes.device-normalized', during.numBytes - before.numBytes, 'measured', {
        detail: 'tf.memory().numBytes with the device-normalized output alive minus before (packed input already disposed)',
      }),
    ];
    if (before.numBytesInGPU !== null && during.numBytesInGPU !== null) {
      // Buffers in use on the device while the output lives; the packed input's buffer is
      // released once its work was submitted.
      metrics.push(
        bytesMetric('memory.device-bytes.device-normalized', during.numBytesInGPU - before.numBytesInGPU, 'measured', {
          detail: 'tf.memory().numBytesInGPU (webgpu buffers in use) with the output alive, after a device sync, minus before',
        }),
      );
    }
    await recordMetrics(task, ...metrics);
  });

  itLeavesNoTensors(() => leaks);
});
