// Ctrl-C (SIGINT) or CI's SIGTERM on `perf:ab` while an arm is measuring: the real command in a
// child process, a real signal, then the repository's worktree list and the temp folder checked.
// The signal goes to the A/B process only (not its process group), so it must stop its own
// measuring child before removing the folders that child runs in.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

let temp: string;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'gtp-ab-interrupt-'));
});
afterAll(async () => {
  if (temp) await rm(temp, { recursive: true, force: true });
});

/** Starts `perf:ab` against HEAD with its temp folder under `tmp`, signals it once an arm is measuring, resolves with its exit. */
function interruptedAb(tmp: string, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(
    join(ROOT, 'node_modules/.bin/tsx'),
    [join(ROOT, 'src/cli/main.ts'), 'ab', '--base', 'HEAD', '--scenario', 'mnist-loader', '--processes', '1'],
    { cwd: ROOT, env: { ...process.env, TMPDIR: tmp } },
  );
  let output = '';
  let sent = false;
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    // Printed after the checkout, as the first arm's perf process starts.
    if (!sent && output.includes('[perf:ab] look 1, pair 1/1')) {
      sent = true;
      setTimeout(() => child.kill(signal), 1_000);
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((done) => child.on('exit', (code, sig) => done({ code, signal: sig, output })));
}

describe('interrupting npm run perf:ab (issue 21 #12)', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s removes its git worktree and temp folder, then exits %i',
    async (signal, exitCode) => {
      const tmp = await mkdtemp(join(temp, `${signal}-`));
      const { code, signal: killedBy, output } = await interruptedAb(tmp, signal);
      expect({ code, killedBy }, output).toEqual({ code: exitCode, killedBy: null });
      expect(output).toMatch(new RegExp(`\\[perf:ab\\] ${signal}: stopping its processes, removing its worktrees and ${tmp}/gtp-ab-`));
      // tsx keeps its compile cache there too (tsx-<uid>); the A/B's own folder is what must go.
      expect((await readdir(tmp)).filter((name) => name.startsWith('gtp-ab-'))).toEqual([]);
      const { stdout } = await promisify(execFile)('git', ['worktree', 'list', '--porcelain'], { cwd: ROOT });
      expect(stdout).not.toContain(tmp);
    },
    120_000,
  );
});
