import { describe, expect, it } from 'vitest';
import { thisMachinesProfile } from './history.js';

// The committed history/ holds these three (issue 40, item 12: a fresh clone's `npm run perf:history` exited 2).
const PROFILES = ['webgpu-lavapipe-amd-epyc-2c-x64', 'webgpu-lavapipe-intel-xeon-2c-x64', 'webgpu-nvidia-h200-x64'];

describe("perf:history's profile when the history holds several", () => {
  it("is this machine's: the one whose id ends in this host's CPU part and architecture", () => {
    expect(thisMachinesProfile(PROFILES, { cpuModel: 'AMD EPYC', cores: 2, arch: 'x64' })).toBe('webgpu-lavapipe-amd-epyc-2c-x64');
    expect(thisMachinesProfile(PROFILES, { cpuModel: 'Intel(R) Xeon(R) Processor', cores: 2, arch: 'x64' })).toBe('webgpu-lavapipe-intel-xeon-2c-x64');
  });
  it('is none where no id (or more than one) names this host: then --profile chooses', () => {
    expect(thisMachinesProfile(PROFILES, { cpuModel: 'AMD EPYC', cores: 4, arch: 'x64' })).toBeNull();
    expect(thisMachinesProfile(PROFILES, { cpuModel: 'AMD EPYC', cores: 2, arch: 'arm64' })).toBeNull();
    expect(thisMachinesProfile([...PROFILES, 'tensorflow-cpu-amd-epyc-2c-x64'], { cpuModel: 'AMD EPYC', cores: 2, arch: 'x64' })).toBeNull();
  });
});
