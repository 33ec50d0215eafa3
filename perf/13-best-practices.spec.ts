// Article section 13, "clear unused tensors" and "monitor memory": what tfjs offers in place of
// PyTorch's torch.cuda.empty_cache(). tfjs-backend-webgpu keeps every buffer a disposed tensor
// freed in a pool keyed by (size, usage) and never gives one back while the backend lives: it
// has no public call to release it (BufferManager.dispose() destroys live tensors' buffers too
// and is for teardown). src/measure/device-memory.ts releases only the FREE buffers; measured
// here after a workload of every sweep batch size (32..512) through both strategies: how many
// bytes the pool held, how many came back, and that live tensors survive and later transfers
// still work. Elsewhere: wasm's heap never shrinks, the cpu backend frees with the tensors.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  deviceMemory,
  heldDeviceBytes,
  releaseBufferPool,
  maxAbsDiff,
  ARTICLE_DEVICE_VS_HOST_BOUND,
  bytesMetric,
  recordMetrics,
  useBackend,
  useMnist,
  SWEEP_BATCHES,
  sweepBatches,
  ARTICLE_NORMALIZATION,
  normalizeOnHost,
  cpuNormalize,
  deviceNormalize,
  type BackendContext,
  type ImageDataset,
} from 'gpu-transfer-perf';

/** A device normalization against the host's (ARTICLE_DEVICE_VS_HOST_BOUND: 1.6e-6). */
const SAME_AS_HOST = ARTICLE_DEVICE_VS_HOST_BOUND;

let context: BackendContext;
let data: ImageDataset;

beforeAll(async () => {
  context = await useBackend();
  data = await useMnist();
});

describe('releasing the device buffer pool (section 13)', () => {
  it('gives the pooled bytes of disposed tensors back to the driver, keeping live tensors', async (ctx) => {
    if (!context.capabilities.hasGpuDevice)
      ctx.skip(`backend ${context.name} has no device buffer pool to release (wasm's heap never shrinks; cpu frees with the tensors)`);
    // From an empty pool, so the figures do not depend on which scenarios ran before; bytes still
    // in use then (e.g. the 16-byte timestamp buffer tfjs keeps once any tf.profile ran) are not counted.
    await releaseBufferPool();
    const inUseAtStart = deviceMemory().bytesInUse ?? 0;
    const strategies = [cpuNormalize(context), deviceNormalize()];
    const keep = strategies[1]!.toDevice(sweepBatches(data, 64, 1)[0]!);
    for (const size of SWEEP_BATCHES) {
      const batch = sweepBatches(data, size, 1)[0]!;
      for (const s of strategies) {
        const out = s.toDevice(batch);
        await context.sync(out);
        out.dispose();
      }
    }
    const release = (await releaseBufferPool())!;
    const { before, after } = release;

    // Nothing free is left: what stays allocated is what live tensors use.
    expect(after.bytesAllocated).toBe(after.bytesInUse);
    expect(release.releasedBytes).toBeGreaterThan(0);
    expect(after.tensors).toBe(before.tensors);
    // The tensor kept alive across the release still holds its values...
    const kept = sweepBatches(data, 64, 1)[0]!;
    expect(maxAbsDiff((await keep.data()) as Float32Array, normalizeOnHost(kept.images, ARTICLE_NORMALIZATION))).toBeLessThanOrEqual(SAME_AS_HOST);
    keep.dispose();
    // ...and a transfer after it allocates afresh and is right.
    const again = strategies[0]!.toDevice(kept);
    expect(maxAbsDiff((await again.data()) as Float32Array, normalizeOnHost(kept.images, ARTICLE_NORMALIZATION))).toBeLessThanOrEqual(SAME_AS_HOST);
    again.dispose();

    const how = `after sending one batch of each size ${SWEEP_BATCHES.join(', ')} through both strategies (each output disposed) with one [64,28,28,1] tensor kept alive`;
    const labels = (quantity: string) => ({ table: 'best-practices', quantity });
    await recordMetrics(
      ctx.task,
      bytesMetric('best-practices.pool.held-before-release', heldDeviceBytes(before)! - inUseAtStart, 'measured', {
        detail: `device bytes held ${how}: tfjs's buffers incl. its free pool (numBytesAllocatedInGPU ${before.bytesAllocated}, of which in use ${before.bytesInUse}) + the harness's upload buffers (${before.harnessBytes}), minus the ${inUseAtStart} B in use before`,
        labels: labels('held-before-release'),
      }),
      bytesMetric('best-practices.pool.released', release.releasedBytes, 'measured', {
        detail: `device bytes given back by releasing the free buffers (${release.buffers} tfjs buffers destroyed; no public tfjs API does this: src/measure/device-memory.ts releaseBufferPool)`,
        labels: labels('released'),
      }),
      bytesMetric('best-practices.pool.held-after-release', heldDeviceBytes(after)! - inUseAtStart, 'measured', {
        detail: `device bytes held right after the release, minus the ${inUseAtStart} B in use before: the live tensor only (tfjs in use) + harness buffers still referenced`,
        labels: labels('held-after-release'),
      }),
    );
  });
});
