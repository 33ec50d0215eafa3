import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childPids } from './signal-children.js';

describe('childPids', () => {
  it("lists a child this process started, and none once it has ended (Linux's /proc)", async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    await new Promise((r) => child.once('spawn', r));
    try {
      expect(childPids()).toContain(child.pid);
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    expect(childPids()).not.toContain(child.pid);
    expect(childPids(2 ** 22 + 1)).toEqual([]);
  });
});
