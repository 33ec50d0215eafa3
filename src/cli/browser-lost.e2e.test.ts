// A browser process that ends without its values (issue 43, item 7), from the real CLI: a page
// that freezes (no test timeout fires inside a page stuck in a loop) is stopped at
// --browser-timeout, and a Chromium killed mid-run is named as gone; either way exit 1 with one
// line naming the process, no run record written, and no Chromium it started left (by process id).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantPids } from '../base/process-tree.js';
import { harnessChromiums } from '../../test/support/chromium.js';
import { cli, ROOT, withEnv } from '../../test/support/cli.js';

const env = withEnv({ PERF_REQUIRE_BASELINE: '', PERF_GATE_TIMING: '', GTP_BROWSER_PATH: '' });

/**
 * Every browser `run` started (this test process's descendants, polled), and what it returned.
 * A browser of another run on the machine (the test before, still closing) is never this run's: it
 * was once seen here and killed as it exited (ESRCH).
 */
async function watching<T>(run: Promise<T>, onSeen: (pid: number) => void = () => undefined): Promise<{ result: T; seen: Set<number> }> {
  const seen = new Set<number>();
  let done = false;
  const result = run.finally(() => {
    done = true;
  });
  while (!done) {
    const mine = new Set(descendantPids());
    for (const pid of await harnessChromiums({ browsersOnly: true })) {
      if (!mine.has(pid) || seen.has(pid)) continue;
      seen.add(pid);
      onSeen(pid);
    }
    await new Promise((wake) => setTimeout(wake, 200));
  }
  return { result: await result, seen };
}

// Perf files of the test's own, inside the project (vitest's root) and out of git (.tmp/ is ignored).
const dir = join(ROOT, '.tmp', `browser-lost-${process.pid}`);
beforeAll(async () => {
  await mkdir(join(dir, 'frozen'), { recursive: true });
  // Freezes the page after tfjs starts: a loop that never yields, so no timer or message gets through.
  await writeFile(
    join(dir, 'frozen/frozen.perf.ts'),
    [
      "import { it } from 'vitest';",
      "import { useBackend } from 'gpu-transfer-perf/browser';",
      "it('never yields', async () => {",
      '  await useBackend();',
      '  for (;;) {}',
      '});',
      '',
    ].join('\n'),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a browser process that ends without its values', () => {
  it('a page that hangs is stopped at --browser-timeout: exit 1, the process named as lost, nothing written, no browser left', async () => {
    const out = join(dir, 'hung.json');
    const { result, seen } = await watching(
      cli(['perf', '--browser', 'chromium', '--dir', join(dir, 'frozen'), '--browser-timeout', '15', '--out', out], undefined, { env, timeoutMs: 120_000 }),
    );
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(
      /^error: process 1 of 1 in Chromium \d+: no result after 15 s \(--browser-timeout\): the page hung; the browser was stopped, its values are lost/m,
    );
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
    expect(seen.size, 'no browser was seen: the check could not fail').toBeGreaterThan(0);
    const left = await harnessChromiums({ browsersOnly: true });
    expect([...seen].filter((pid) => left.has(pid))).toEqual([]);
  });

  it('a browser killed mid-run: exit 1, named as gone, nothing written, none left', async () => {
    const out = join(dir, 'killed.json');
    const { result, seen } = await watching(
      cli(['perf', '--browser', 'chromium', '--scenario', 'speedup', '--out', out], undefined, { env, timeoutMs: 120_000 }),
      // Killed as soon as it is seen: mid-run (the page loads and measures after the launch).
      (pid) => process.kill(pid, 'SIGKILL'),
    );
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^error: process 1 of 1 in Chromium \d+: the browser closed before the run finished \(it crashed or was killed/m);
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
    expect(seen.size).toBeGreaterThan(0);
    const left = await harnessChromiums({ browsersOnly: true });
    expect([...seen].filter((pid) => left.has(pid))).toEqual([]);
  });
});
