import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** The project root, where the real CLI lives. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** A temp folder for the calling test file, made before its tests and removed after them; read it inside a test. */
export function tempFolderOfFile(prefix: string): () => string {
  let dir: string | null = null;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (!dir) throw new Error('tempFolderOfFile: read it inside a test');
    return dir;
  };
}

export interface Interruption {
  /** Text in the command's stdout or stderr after which it is signalled. */
  readonly after: string;
  readonly delayMs: number;
  readonly signal: NodeJS.Signals;
  readonly env?: NodeJS.ProcessEnv;
  /** Runs just before the signal is sent (e.g. to see what the command has made by then). */
  readonly before?: () => Promise<void>;
}

/**
 * Runs the real CLI in a child process and sends it `signal` once `after` appeared in its
 * output and `delayMs` passed: only the command's own process, not its group, so it must pass
 * the signal on to its children itself. Resolves with how it exited and what it printed.
 */
export function interruptedCli(args: readonly string[], i: Interruption): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'src/cli/main.ts'), ...args], { cwd: ROOT, env: { ...process.env, ...i.env } });
  let output = '';
  let sent = false;
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (!sent && output.includes(i.after)) {
      sent = true;
      setTimeout(async () => {
        await i.before?.();
        child.kill(i.signal);
      }, i.delayMs);
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((done) => child.on('exit', (code, signal) => done({ code, signal, output })));
}
