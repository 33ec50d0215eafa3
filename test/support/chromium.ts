import { readdir, readFile } from 'node:fs/promises';

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
