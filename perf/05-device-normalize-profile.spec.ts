// Article section 5: profile a train step fed by the device-normalize path.
import { describe } from 'vitest';
import { describeTrainProfile } from '../src/suite/profile-spec.js';

describe('profile of a train step, device-normalize (section 5)', () => {
  describeTrainProfile('device-normalize');
});
