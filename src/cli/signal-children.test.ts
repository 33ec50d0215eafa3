import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childPids, isNpmLauncher } from './signal-children.js';

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

describe('isNpmLauncher: whose death stops the CLI (issue 51)', () => {
  it('npx and npm by the titles /proc shows (seen here), their JS entries and the sh -c of npm exec; not a shell or a service', () => {
    expect(isNpmLauncher(['npm exec gtp perf --processes 6', '', ''])).toBe(true);
    expect(isNpmLauncher(['npm run perf'])).toBe(true);
    expect(isNpmLauncher(['node', '/usr/lib/node_modules/npm/bin/npx-cli.js', 'gtp'])).toBe(true);
    expect(isNpmLauncher(['sh', '-c', 'gtp perf'])).toBe(true);
    expect(isNpmLauncher(['/bin/sh', '-c', 'gtp perf'])).toBe(true);
    expect(isNpmLauncher(['-bash'])).toBe(false);
    expect(isNpmLauncher(['bash'])).toBe(false);
    expect(isNpmLauncher(['/usr/bin/nohup', 'gtp', 'perf'])).toBe(false);
    expect(isNpmLauncher(['/lib/systemd/systemd', '--user'])).toBe(false);
    expect(isNpmLauncher([])).toBe(false);
  });
});
