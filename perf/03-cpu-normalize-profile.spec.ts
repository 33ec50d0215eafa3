// Article section 3: profile a train step fed by the cpu-normalize path (key_averages table).
import { describe } from 'vitest';
import { describeTrainProfile } from '../src/suite/profile-spec.js';

describe('profile of a train step, cpu-normalize (section 3)', () => {
  describeTrainProfile('cpu-normalize');
});
