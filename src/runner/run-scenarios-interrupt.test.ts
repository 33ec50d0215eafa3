// An interrupted `perf` leaves no vitest temp folder (<tmp>/<21-character id>/, the modules
// vitest transformed for the forked worker) behind (issue 21 #16): the real command in a child
// process with its own TMPDIR, a real signal once it is measuring, then that folder listed.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

let temp: string;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'gtp-vitest-tmp-'));
});
afterAll(async () => {
  if (temp) await rm(temp, { recursive: true, force: true });
});

/** Starts `perf` on a timed scenario with TMPDIR=`tmp`, signals it 2 s into measuring, resolves with its exit. */
function interruptedPerf(tmp: string, signal: NodeJS.Signals): Promise<{ code: number | null; entries: string[] }> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'src/cli/main.ts'), 'perf', '--scenario', '6', '--out', join(tmp, 'out', 'run.json')], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: tmp },
  });
  let entries: string[] = [];
  let sent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (!sent && chunk.toString().includes('[gpu-transfer-perf] backend:')) {
      sent = true;
      setTimeout(async () => {
        entries = await readdir(tmp); // vitest's folder exists while it runs
        child.kill(signal);
      }, 2_000);
    }
  });
  return new Promise((done) => child.on('exit', (code) => done({ code, entries })));
}

const vitestTmp = (names: readonly string[]) => names.filter((n) => /^[A-Za-z0-9_-]{21}$/.test(n));

describe('interrupting npm run perf', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s leaves no vitest temp folder in the temp directory',
    async (signal) => {
      const tmp = await mkdtemp(join(temp, `${signal}-`));
      const { code, entries } = await interruptedPerf(tmp, signal);
      expect(code).not.toBe(0);
      expect(vitestTmp(entries)).toHaveLength(1); // it was there to be removed
      expect(vitestTmp(await readdir(tmp))).toEqual([]);
    },
    120_000,
  );
});
