// `ab --browser chromium` from the real CLI in a clone of this repository (issue 43 item 5): a base
// from before the browser host is refused (exit 3) before anything is measured. The A/B itself
// (each process of each arm its commit's own `perf --browser chromium`, one Chromium launch, judged
// per process) runs once in `npm run test:gates`, as the browser's A/B gate (package.json: this tree
// against the browser baseline's commit, 6 + 6 launches), not a second time here.
import { execFile, spawn } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, withEnv } from '../../test/support/cli.js';
import { tempFolder } from '../../test/support/temp-folder.js';
import { linkNodeModules } from '../runner/ab.js';

const git = (cwd: string, ...args: string[]) => promisify(execFile)('git', args, { cwd });

/** A commit from before `perf --browser` (its harness has no perf/browser/). */
const PRE_BROWSER = '8c2043a';

const temp = tempFolder('gtp-ab-browser-');
const env = withEnv({ PERF_REQUIRE_BASELINE: '', PERF_GATE_TIMING: '', GTP_BROWSER_PATH: '' });

/** The clone's own CLI from its sources (an A/B here measures each arm with its checkout's sources), run in the clone; never throws on a non-zero exit. */
function abInClone(clone: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(join(clone, 'node_modules/.bin/tsx'), [join(clone, 'src/cli/main.ts'), 'ab', ...args], { cwd: clone, env });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

describe('gtp ab --browser chromium (issue 43 item 5)', () => {
  let clone = '';
  beforeAll(async () => {
    // A clone of the committed HEAD: the A/B's worktrees go into the clone's repository, not this one.
    clone = temp.at('clone');
    const { stdout: head } = await git(ROOT, 'rev-parse', 'HEAD');
    await git(ROOT, 'clone', '-q', '--no-checkout', ROOT, clone);
    await git(clone, 'checkout', '-q', '--detach', head.trim());
    // Its own node_modules folder (links to this one's packages), so that Vite's dependency cache is
    // the clone's: one shared with another browser run here is rebuilt under this one's page.
    await linkNodeModules(await realpath(join(ROOT, 'node_modules')), join(clone, 'node_modules'), true);
  }, 120_000);

  it('a base from before the browser host is nothing to compare (exit 3), said before anything is measured', async () => {
    const run = await abInClone(clone, ['--browser', 'chromium', '--base', PRE_BROWSER, '--processes', '6', '--ratios-only']);
    expect(run.code, run.stderr + run.stdout).toBe(3);
    expect(run.stderr).toMatch(
      new RegExp(
        `^error: ${PRE_BROWSER} \\(${PRE_BROWSER}[0-9a-f]{5}\\) has no perf files in perf/browser/ .*so it cannot run in a browser .*pick a base at or after the first commit with perf/browser/ \\(\`git log --reverse -- perf/browser\` shows it first\\)$`,
        'm',
      ),
    );
    expect(run.stdout).not.toMatch(/look 1, pair/);
    // Its worktree is gone again.
    expect((await git(clone, 'worktree', 'list')).stdout.trim().split('\n')).toHaveLength(1);
  }, 120_000);
});
