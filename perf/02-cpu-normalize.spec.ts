// Article section 2: normalize on the CPU, send float32 to the device.
import { describe } from 'vitest';
import { describeStrategyTransfer } from 'gpu-transfer-perf';

describe('cpu-normalize (section 2)', () => {
  describeStrategyTransfer('cpu-normalize', { expectedUploadBytes: 200_704 });
});
