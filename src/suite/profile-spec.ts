import { beforeAll, expect, it } from 'vitest';
import type { BackendContext } from '../backend/types.js';
import { LeakCheck } from '../measure/memory.js';
import { recordKernelTable, recordMetrics } from '../results/task-meta.js';
import { NORMALIZE_PACKED_BYTES } from '../transfer/normalize-packed-kernel.js';
import type { StrategyId } from '../transfer/strategies.js';
import { useBackend, useConfig } from './session.js';
import { SIZES } from './sizes.js';
import { profileTrainStep } from './train-profile.js';
import { firstArticleBatch, strategyFor } from './transfer-spec.js';

/** Sections 3 and 5: profile the article's train step fed by one strategy; store its top-10 kernel table. */
export function describeTrainProfile(id: StrategyId): void {
  const scenario = `${id}-profile`;
  let context: BackendContext;

  beforeAll(async () => {
    context = await useBackend();
  });

  it('profiles one train step and keeps the top-10 kernels by time', async ({ task }) => {
    const leaks = new LeakCheck();
    const strategy = strategyFor(context, id);
    const profile = await profileTrainStep(strategy, await firstArticleBatch(), SIZES[useConfig().scale].profileWarmupSteps);

    expect(Number.isFinite(profile.loss)).toBe(true);
    expect(profile.table.rows.length).toBeGreaterThan(0);
    expect(profile.table.rows.length).toBeLessThanOrEqual(10);
    expect([...profile.kernelNames].some((n) => n.includes('Conv2D'))).toBe(true); // Conv2D, or FusedConv2D with its ReLU
    // The device-normalize kernel is a registered kernel, so the profile must see it.
    expect(profile.kernelNames.has(NORMALIZE_PACKED_BYTES)).toBe(id === 'device-normalize' && strategy.wireBytesPerPixel() === 1);
    expect(leaks.leakedTensors()).toBe(0);

    recordKernelTable(task, context, scenario, profile.table);
    recordMetrics(
      task,
      context,
      {
        id: `profile.kernel-ms.${id}`,
        scenario,
        kind: 'time',
        value: profile.table.totalKernelMs,
        unit: 'ms',
        source: 'measured',
        detail: `sum of kernel times of one profiled ${profile.table.step} (${profile.table.kernelCount} kernels); ${profile.table.timing}`,
      },
      {
        id: `memory.leaked-tensors.${scenario}`,
        scenario,
        kind: 'exact',
        value: leaks.leakedTensors(),
        unit: 'tensors',
        source: 'measured',
        detail: 'tf.memory().numTensors after the profiled steps minus before',
      },
    );
  });
}
