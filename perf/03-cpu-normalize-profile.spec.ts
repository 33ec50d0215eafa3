// Article section 3: profile a train step fed by the cpu-normalize path (key_averages table).
import { describe } from 'vitest';
import { describeTrainStepKernels } from 'gpu-transfer-perf';

describe('profile of a train step, cpu-normalize (section 3)', () => {
  describeTrainStepKernels('cpu-normalize');
});
