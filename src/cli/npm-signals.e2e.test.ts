// A signal to the documented entry point stops the run (issue 41, item 1): `npm run gtp -- ...`
// started as a user does, then SIGINT or SIGTERM to npm's own pid only (as `timeout`, a CI job's
// cancel or `kill PID` send it). Every process under npm must be gone within 5 s, each output
// absent or a valid file, and the history folder unchanged after the signal. Before the fix
// npm's `sh -c` died alone and the CLI went on as an orphan, writing its outputs afterwards.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withEnv } from '../../test/support/cli.js';
import { ROOT, tempFolderOfFile } from '../../test/support/interrupt.js';
import { filesUnder, signalledLauncher } from '../../test/support/launcher-signals.js';
import { signalExitCode } from '../results/exit.js';
import { readRunRecord } from '../results/storage.js';

const temp = tempFolderOfFile('gtp-npm-signals-');

const CASES = [
  // One scenario that measures for tens of seconds (training), so the signal lands mid-run on any
  // machine (mnist-loader's 3 s ended before it on a quiet one); the progress line shows vitest has started its worker.
  {
    command: 'perf',
    args: (d: string) => ['perf', '--scenario', '10', '--out', join(d, 'run.json'), '--history', join(d, 'history')],
    after: 'perf files 0/1',
    delayMs: 1_500,
  },
  // A worktree of HEAD and a measure host per arm: signalled as the first arm measures.
  {
    command: 'ab',
    args: (d: string) => ['ab', '--base', 'HEAD', '--scenario', 'cpu-normalize-profile', '--processes', '6', '--json', join(d, 'ab.json')],
    after: '[perf:ab] look 1, pair 1/6',
    delayMs: 1_000,
  },
  // The whole doctor (its measuring about 4 s on the quiet Zen 5 machine): --quick's was done 1 s
  // after 'measuring on' there (1.8 s in all), so the signal came after the exit.
  { command: 'doctor', args: (d: string) => ['doctor', '--json', join(d, 'doctor.json')], after: 'measuring on ', delayMs: 500 },
] as const;

describe('a signal to npm run gtp stops the whole run (issue 41, item 1)', () => {
  for (const c of CASES) {
    it.each(['SIGINT', 'SIGTERM'] as const)(
      `${c.command}: %s to npm's pid ends every process within 5 s, outputs absent or complete, no history after it`,
      async (signal) => {
        const dir = await mkdtemp(join(temp(), `${c.command}-${signal}-`));
        const history = join(dir, 'history');
        const stopped = await signalledLauncher({
          command: ['npm', 'run', '--silent', 'gtp', '--', ...c.args(dir)],
          cwd: ROOT,
          env: withEnv(),
          after: c.after,
          delayMs: c.delayMs,
          signal,
          history,
        });
        expect(stopped.output).toContain(c.after);
        expect(stopped.survivors, stopped.output).toEqual([]);
        expect(stopped.code, stopped.output).toBe(signalExitCode(signal));
        expect(filesUnder(history)).toEqual(stopped.historyAtSignal);
        // Outputs are absent or whole: a record reads back, a JSON output parses.
        const run = join(dir, 'run.json');
        if (existsSync(run)) await expect(readRunRecord(run)).resolves.toMatchObject({ selection: expect.any(Array) });
        for (const name of ['ab.json', 'doctor.json'])
          if (existsSync(join(dir, name))) expect(() => JSON.parse(readFileSync(join(dir, name), 'utf8'))).not.toThrow();
      },
      120_000,
    );
  }
});
