import { describe, expect, it } from 'vitest';
import { secondsSinceCommandStart, stderrUnfiltered } from './filtered-stderr.js';

describe('the doctor child whose stderr is filtered (issue 41, item 5)', () => {
  it('is marked so that it runs the command itself, not a child again', () => {
    expect(stderrUnfiltered({})).toBe(true);
    expect(stderrUnfiltered({ GTP_STDERR_FILTERED: '1' })).toBe(false);
  });

  it("counts a deadline from its parent's start, not its own", () => {
    expect(secondsSinceCommandStart({ GTP_STARTED_AT_MS: '1000000' }, 1_004_500)).toBe(4.5);
    // Unset or garbled: this process's own uptime.
    const own = secondsSinceCommandStart({ GTP_STARTED_AT_MS: 'x' });
    expect(own).toBeGreaterThan(0);
    expect(own).toBeLessThanOrEqual(process.uptime());
  });
});
