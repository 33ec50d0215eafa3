// Article section 4: send raw uint8 (1 byte per pixel), normalize on the device.
import { beforeAll, describe, expect, it } from 'vitest';
import type { BackendContext } from '../src/backend/types.js';
import { qualityMetric } from '../src/results/metrics.js';
import { recordMetrics } from '../src/suite/record.js';
import { useBackend } from '../src/suite/session.js';
import { maxAbsDiff } from '../src/measure/statistics.js';
import { describeStrategyTransfer, firstArticleBatch, strategyFor, transferAndRead } from '../src/suite/transfer-spec.js';

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
