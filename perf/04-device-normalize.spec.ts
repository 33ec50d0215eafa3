// Article section 4: send raw uint8 (1 byte per pixel), normalize on the device.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  qualityMetric,
  recordMetrics,
  useBackend,
  maxAbsDiff,
  ARTICLE_DEVICE_VS_HOST_BOUND,
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

  // cpu-normalize's values are the host's (float64 rounded once), device-normalize's the device's.
  const bound = ARTICLE_DEVICE_VS_HOST_BOUND;

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
