import { beforeAll, expect, it } from 'vitest';
import type { BackendContext } from '../backend/types.js';
import { LeakCheck } from '../measure/memory.js';
import { exactMetric, timeMetric } from '../results/metrics.js';
import { NORMALIZE_PACKED_BYTES } from '../transfer/kernels/normalize-packed-kernel.js';
import type { StrategyId } from '../transfer/strategies/strategies.js';
import { recordKernelTable, recordMetrics } from './record.js';
import { useBackend, useSizes } from './session.js';
import { trainStepKernels } from './train-step-kernels.js';
import { firstArticleBatch, strategyFor } from './transfer-spec.js';

/** Sections 3 and 5: tf.profile of the article's train step fed by one strategy; keeps its top-10 kernel table. */
export function describeTrainStepKernels(id: StrategyId): void {
  let context: BackendContext;

  beforeAll(async () => {
    context = await useBackend();
  });

  it('profiles one train step and keeps the top-10 kernels by time', async ({ task }) => {
    const leaks = new LeakCheck();
    const strategy = strategyFor(context, id);
    const step = await trainStepKernels(strategy, await firstArticleBatch(), useSizes().profileWarmupSteps);

    expect(Number.isFinite(step.loss)).toBe(true);
    expect(step.table.rows.length).toBeGreaterThan(0);
    expect(step.table.rows.length).toBeLessThanOrEqual(10);
    expect([...step.kernelNames].some((n) => n.includes('Conv2D'))).toBe(true); // Conv2D, or FusedConv2D with its ReLU
    // The device-normalize kernel is a registered kernel, so the profile must see it.
    expect(step.kernelNames.has(NORMALIZE_PACKED_BYTES)).toBe(id === 'device-normalize' && strategy.wireBytesPerPixel() === 1);
    expect(leaks.leakedTensors()).toBe(0);

    await recordKernelTable(task, `${id}-profile`, step.table);
    await recordMetrics(
      task,
      timeMetric(`profile.kernel-ms.${id}`, step.table.totalKernelMs, 1, {
        detail: `sum of kernel times of one profiled ${step.table.step} (${step.table.kernelCount} kernels); ${step.table.timing}`,
        labels: { strategy: id },
      }),
      exactMetric(`memory.leaked-tensors.${id}-profile`, leaks.leakedTensors(), 'tensors', 'measured', {
        detail: 'tf.memory().numTensors after the profiled steps minus before',
      }),
    );
  });
}
