// Article section 5: profile a train step fed by the device-normalize path.
import { describe } from 'vitest';
import { describeTrainStepKernels } from 'gpu-transfer-perf';

describe('profile of a train step, device-normalize (section 5)', () => {
  describeTrainStepKernels('device-normalize');
});
