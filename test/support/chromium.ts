import { readdir, readFile } from 'node:fs/promises';
import { descendantPids } from '../../src/base/process-tree.js';

/**
 * Live (not zombie) processes started with the harness's Chromium flags (runner/browser.ts
 * CHROMIUM_FLAGS), read from /proc: what a run would leave behind. `browsersOnly`: the browser
 * process itself (Playwright's pipe flag, no `--type=` of a helper process), not its renderers.
 */
export async function harnessChromiums({ browsersOnly = false } = {}): Promise<Set<number>> {
  const found = new Set<number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const args = (await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (!args.includes('--enable-unsafe-swiftshader') || !args.includes('--use-angle=swiftshader')) continue;
    if (browsersOnly && (!args.includes('--remote-debugging-pipe') || args.some((a) => a.startsWith('--type=')))) continue;
    found.add(Number(name));
  }
  return found;
}

/**
 * Runs `run` (which starts the CLI as a child of this test process) and returns its result with
 * the harness Chromiums it started that are still alive after it: those seen among this
 * process's descendants while it ran (polled every 200 ms), by process id. Chromiums of other
 * processes on the machine (a concurrent run) are never this run's.
 */
export async function chromiumsLeftBy<T>(run: () => Promise<T>): Promise<{ result: T; left: number[] }> {
  const seen = new Set<number>();
  const look = async () => {
    const mine = new Set(descendantPids());
    for (const pid of await harnessChromiums()) if (mine.has(pid)) seen.add(pid);
  };
  const polling = setInterval(() => void look(), 200);
  let result: T;
  try {
    result = await run();
  } finally {
    clearInterval(polling);
  }
  const alive = await harnessChromiums();
  return { result, left: [...seen].filter((pid) => alive.has(pid)) };
}
