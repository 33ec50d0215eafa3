// Article section 5: profile a train step fed by the device-normalize path.
import { describe } from 'vitest';
import { describeTrainStepKernels } from '../src/suite/kernel-table-spec.js';

describe('profile of a train step, device-normalize (section 5)', () => {
  describeTrainStepKernels('device-normalize');
});
