import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** The project root, where the real CLI lives. */
export const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const MAIN = join(ROOT, 'src/cli/main.ts');
const run = promisify(execFile);

/** Runs the real CLI as a user does, in a child process; never throws on a non-zero exit. */
export async function cli(args: readonly string[], cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(TSX, [MAIN, ...args], { cwd, env: { ...process.env, PERF_BACKEND: '', PERF_REQUIRE_BACKEND: '' }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout, stderr: e.stderr };
  }
}
