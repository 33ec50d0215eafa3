import { describe, expect, it } from 'vitest';
import { timeHostCopy } from './host-copy.js';

describe('timeHostCopy', () => {
  it('times each repeat of the whole copy with one worker per slice', async () => {
    // 1 MiB over 2 threads: two 512 KiB slices (slices are whole 4 KiB pages).
    const { times, threads } = await timeHostCopy(1024 * 1024, 3, 2);
    expect(threads).toBe(2);
    expect(times).toHaveLength(3);
    for (const t of times) expect(t).toBeGreaterThan(0);
  });

  it('uses fewer workers than asked when the buffer has fewer pages than threads', async () => {
    // 8 KiB over 4 threads: each slice rounds up to one 4 KiB page, so two workers.
    expect((await timeHostCopy(8192, 1, 4)).threads).toBe(2);
  });
});
