import { describe, expect, it } from 'vitest';
import { HOST_PROBE_ELEMENTS, hostProbe } from './host-probe.js';

describe('hostProbe', () => {
  it('times one pass of the table loop over its fixed input and writes every element', () => {
    const probe = hostProbe();
    const ms = probe();
    expect(ms).toBeGreaterThanOrEqual(0);
    // The pattern (i * 131 + 7) & 255 is a bijection on each run of 256, so each byte value
    // appears HOST_PROBE_ELEMENTS / 256 = 196 times: the sum is 196 * sum(v / 255) = 196 * 128.
    expect(probe.checksum()).toBeCloseTo((HOST_PROBE_ELEMENTS / 256) * 128, 1);
  });

  it('is the same work in every probe (no randomness between commits or processes)', () => {
    const [a, b] = [hostProbe(), hostProbe()];
    a();
    b();
    expect(a.checksum()).toBe(b.checksum());
  });
});
