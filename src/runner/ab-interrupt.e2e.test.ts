// Ctrl-C (SIGINT) or CI's SIGTERM on `perf:ab` while an arm is measuring: the real command in a
// child process, a real signal, then the repository's worktree list and the temp folder checked.
// The signal goes to the A/B process only (not its process group), so it must stop its own
// measuring child before removing the folders that child runs in.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { interruptedCli, ROOT, tempFolderOfFile } from '../../test/support/interrupt.js';

const temp = tempFolderOfFile('gtp-ab-interrupt-');

describe('interrupting npm run perf:ab (issue 21 #12)', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s removes its git worktree and temp folder, then exits %i',
    async (signal, exitCode) => {
      const tmp = await mkdtemp(join(temp(), `${signal}-`));
      // A scenario with a time metric: one with none (mnist-loader) is refused before any checkout (issue 34).
      const {
        code,
        signal: killedBy,
        output,
      } = await interruptedCli(['ab', '--base', 'HEAD', '--scenario', 'cpu-normalize-profile', '--processes', '6'], {
        // Printed after the checkout, as the first arm's perf process starts.
        after: '[perf:ab] look 1, pair 1/6',
        delayMs: 1_000,
        signal,
        env: { TMPDIR: tmp },
      });
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
