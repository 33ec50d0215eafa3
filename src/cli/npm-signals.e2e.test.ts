// A signal to the documented entry point stops the run (issue 41, item 1): `npm run gtp -- ...`
// started as a user does, then SIGINT or SIGTERM to npm's own pid only (as `timeout`, a CI job's
// cancel or `kill PID` send it). Every process under npm must be gone within 5 s, each output
// absent or a valid file, and the history folder unchanged after the signal. Before the fix
// npm's `sh -c` died alone and the CLI went on as an orphan, writing its outputs afterwards.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withEnv } from '../../test/support/cli.js';
import { ROOT, tempFolderOfFile } from '../../test/support/interrupt.js';
import { signalExitCode } from '../results/exit.js';
import { readRunRecord } from '../results/storage.js';

const temp = tempFolderOfFile('gtp-npm-signals-');

/** Every process below `pid`, read from /proc (Linux): the tree as it is at this moment. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found; // already gone
  }
  for (const task of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean).map(Number)) found.push(child, ...descendants(child));
  }
  return found;
}

/** Whether a process still runs (a zombie, exited but not yet reaped, counts as ended). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Lists a folder tree's files (relative paths), or [] when it does not exist. */
const filesUnder = (dir: string): string[] => (existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).sort() : []);

interface Stopped {
  readonly code: number | null;
  readonly output: string;
  /** Processes under npm at the signal that still ran 5 s after it. */
  readonly survivors: number[];
  /** The history folder's files just before the signal. */
  readonly historyAtSignal: string[];
}

/**
 * `npm run --silent gtp -- <args>`; once `after` is in its output and `delayMs` passed, `signal`
 * to npm's pid alone. Resolves 5 s after the signal, or when npm and every process it had ended.
 */
function signalledThroughNpm(args: readonly string[], after: string, delayMs: number, signal: NodeJS.Signals, history: string): Promise<Stopped> {
  const npm = spawn('npm', ['run', '--silent', 'gtp', '--', ...args], { cwd: ROOT, env: withEnv() });
  let output = '';
  let sent = false;
  let exit: number | null | undefined;
  const exited = new Promise<void>((done) =>
    npm.on('exit', (code, sig) => {
      exit = code ?? (sig ? signalExitCode(sig) : null);
      done();
    }),
  );
  return new Promise((resolve) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (sent || !output.includes(after)) return;
      sent = true;
      setTimeout(async () => {
        const tree = descendants(npm.pid!);
        const historyAtSignal = filesUnder(history);
        npm.kill(signal);
        const deadline = Date.now() + 5_000;
        while (Date.now() < deadline && (exit === undefined || tree.some(running))) await new Promise((r) => setTimeout(r, 100));
        const survivors = tree.filter(running);
        for (const pid of survivors) process.kill(pid, 'SIGKILL'); // leave nothing running after the test
        await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))]);
        resolve({ code: exit ?? null, output, survivors, historyAtSignal });
      }, delayMs);
    };
    npm.stdout.on('data', collect);
    npm.stderr.on('data', collect);
    // A command that ended before the text appeared fails the test below (code 0, no signal sent).
    void exited.then(() => {
      if (!sent) resolve({ code: exit ?? null, output, survivors: [], historyAtSignal: [] });
    });
  });
}

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
        const stopped = await signalledThroughNpm(c.args(dir), c.after, c.delayMs, signal, history);
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
