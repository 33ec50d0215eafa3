// Article section 4: send raw uint8 (1 byte per pixel), normalize on the device.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  qualityMetric,
  recordMetrics,
  useBackend,
  maxAbsDiff,
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

  it('max |cpu-normalize - device-normalize| <= 1e-6 on the article batch', async ({ task }) => {
    const batch = await firstArticleBatch();
    const viaHost = await transferAndRead(context, strategyFor(context, 'cpu-normalize'), batch);
    const viaDevice = await transferAndRead(context, strategyFor(context, 'device-normalize'), batch);
    expect(viaDevice.shape).toEqual(viaHost.shape);
    const diff = maxAbsDiff(viaHost.values, viaDevice.values);
    expect(diff).toBeLessThanOrEqual(1e-6);
    await recordMetrics(
      task,
      qualityMetric(
        'mnist-transfer.max-abs-diff',
        diff,
        { max: 1e-6 },
        {
          detail: 'largest elementwise difference between the two strategies, both read back from the device',
        },
      ),
    );
  });
});
