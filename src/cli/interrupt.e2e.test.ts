// A long run stopped by the user (Ctrl-C, or CI's SIGTERM) leaves no half-written run record:
// the record is written once, atomically, at the end (src/results/storage.ts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunRecord } from '../results/storage.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Starts `npm run perf` on the timed scenarios, signals it once it is measuring, resolves with its exit. */
function interruptedRun(out: string, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'src/cli/main.ts'), 'perf', '--scenario', '6', '--scenario', '11', '--out', out], {
    cwd: ROOT,
  });
  let sent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    // The backend line appears when the first scenario reaches the device: measuring has begun.
    if (!sent && chunk.toString().includes('[gpu-transfer-perf] backend:')) {
      sent = true;
      setTimeout(() => child.kill(signal), 500);
    }
  });
  return new Promise((done) => child.on('exit', (code, sig) => done({ code, signal: sig })));
}

describe('interrupting npm run perf', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s leaves no record or a valid one, never half a file',
    async (signal) => {
      const folder = await mkdtemp(join(tmpdir(), 'gtp-interrupt-'));
      const out = join(folder, 'run.json');
      try {
        const { code, signal: killedBy } = await interruptedRun(out, signal);
        expect(code === 0 && killedBy === null).toBe(false);
        if (existsSync(out)) await expect(readRunRecord(out)).resolves.toMatchObject({ selection: expect.any(Array) });
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
