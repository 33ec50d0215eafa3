// Article section 4: send raw uint8 (1 byte per pixel), normalize on the device.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  qualityMetric,
  recordMetrics,
  useBackend,
  maxAbsDiff,
  normalizeAgreementBound,
  NORMALIZE_ROUNDINGS,
  HOST_ROUNDINGS,
  ARTICLE_NORMALIZATION,
  describeStrategyTransfer,
  firstArticleBatch,
  strategyFor,
  transferAndRead,
  type BackendContext,
} from 'gpu-transfer-perf';

describe('device-normalize (section 4)', () => {
  describeStrategyTransfer('device-normalize', { expectedUploadBytes: 50_176 });
});

describe('both strategies give the same tensor', () => {
  let context: BackendContext;
  beforeAll(async () => {
    context = await useBackend();
  });

  // cpu-normalize's values are the host's (float64 rounded once), device-normalize's at most 8
  // roundings per term of (x - 127.5) / 127.5 (WGSL's 2.5-ulp division included): they differ by
  // at most (gamma_8 + gamma_1) * 3 = 1.6e-6 (Higham, "Accuracy and Stability of Numerical
  // Algorithms", 2nd ed., §3.1; src/measure/float-bounds.ts). One step of 1/255 off is 7.8e-3.
  const bound = normalizeAgreementBound(ARTICLE_NORMALIZATION, NORMALIZE_ROUNDINGS, HOST_ROUNDINGS);

  it('max |cpu-normalize - device-normalize| within float32 rounding on the article batch', async ({ task }) => {
    const batch = await firstArticleBatch();
    const viaHost = await transferAndRead(context, strategyFor(context, 'cpu-normalize'), batch);
    const viaDevice = await transferAndRead(context, strategyFor(context, 'device-normalize'), batch);
    expect(viaDevice.shape).toEqual(viaHost.shape);
    const diff = maxAbsDiff(viaHost.values, viaDevice.values);
    expect(diff).toBeLessThanOrEqual(bound);
    await recordMetrics(
      task,
      qualityMetric(
        'mnist-transfer.max-abs-diff',
        diff,
        { max: bound },
        {
          detail: 'largest elementwise difference between the two strategies, both read back from the device',
        },
      ),
    );
  });
});
