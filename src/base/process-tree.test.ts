import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { descendantPids, descendantWithArgument } from './process-tree.js';

describe('descendants read from /proc', () => {
  it('finds a grandchild by an argument of its command line, and not once it is gone', async () => {
    const marker = `gtp-process-tree-${process.pid}`;
    // sh -> node: the node process is this test's grandchild, started with the marker as an argument.
    const child = spawn('sh', ['-c', `"${process.execPath}" -e "setTimeout(() => {}, 60000)" ${marker} & wait`], { stdio: 'ignore' });
    try {
      await expect.poll(() => descendantWithArgument(marker), { timeout: 10_000 }).toBe(true);
      expect(descendantPids()).toContain(child.pid);
      expect(descendantWithArgument(`${marker}-other`)).toBe(false);
    } finally {
      for (const pid of descendantPids(child.pid!)) process.kill(pid, 'SIGKILL');
      child.kill('SIGKILL');
    }
    await expect.poll(() => descendantWithArgument(marker), { timeout: 10_000 }).toBe(false);
  });

  it('a process that does not exist has none', () => {
    expect(descendantPids(2 ** 22 + 1)).toEqual([]);
  });
});
