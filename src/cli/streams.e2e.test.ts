// Standard streams as Unix tools treat them (issue 41, item 2), through the real CLI: a reader
// that stops early (`| head -1`: here the pipe's read end closed before the CLI writes, so the
// first write fails every time) ends the command quietly with 141, and a stdout that cannot be
// written (/dev/full) is one line on stderr and exit 2. Before, both were an unhandled 'error'
// event: a stack trace and exit 1 ("regressed" for compare).
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, withEnv } from '../../test/support/cli.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { makeBaseline } from '../results/baseline.js';
import { writeJsonAtomic } from '../results/storage.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const temp = tempFolder('gtp-streams-');
beforeAll(async () => {
  const record = testRunRecord([{ id: 'x.bytes', scenario: 'device-normalize', kind: 'exact', value: 1, unit: 'B' }]);
  await writeJsonAtomic(temp.at('run.json'), record);
  // Its own baseline, so that compare judges it and writes its verdicts (a run without one exits 3 before any).
  await writeJsonAtomic(temp.at(`${record.profile.id}.json`), makeBaseline(record, 'run.json', {}));
});

/** Runs the CLI (sources, as `npm run gtp` does) with stdout closed at the reader's end, or sent to a file descriptor. */
function run(args: readonly string[], stdout: 'closed-pipe' | number): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: withEnv({ PERF_REQUIRE_BASELINE: '' }),
    stdio: ['ignore', stdout === 'closed-pipe' ? 'pipe' : stdout, 'pipe'],
  });
  // The reader is gone before the CLI has started: its first write to stdout meets a closed pipe.
  if (stdout === 'closed-pipe') child.stdout!.destroy();
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((done) => child.on('close', (code) => done({ code, stderr })));
}

const STACK = /^\s+at .+:\d+:\d+\)?$/m;

describe('a closed pipe ends the command quietly (exit 141, as SIGPIPE)', () => {
  it.each([
    ['compare R (its lines)', () => ['compare', temp.at('run.json'), '--baselines', temp.path]],
    ['compare R --json -', () => ['compare', temp.at('run.json'), '--baselines', temp.path, '--json', '-']],
    ['doctor --quick', () => ['doctor', '--quick']],
  ])('%s', async (_name, args) => {
    const { code, stderr } = await run(args(), 'closed-pipe');
    expect(stderr).not.toMatch(STACK);
    expect(stderr).not.toMatch(/EPIPE/);
    expect(code, stderr).toBe(141);
  });
});

describe('a stdout that cannot be written is one line and exit 2', () => {
  it.each([
    ['compare R > /dev/full', () => ['compare', temp.at('run.json'), '--baselines', temp.path]],
    ['compare R --json - > /dev/full', () => ['compare', temp.at('run.json'), '--baselines', temp.path, '--json', '-']],
  ])('%s', async (_name, args) => {
    const full = openSync('/dev/full', 'w');
    try {
      const { code, stderr } = await run(args(), full);
      expect(stderr).not.toMatch(STACK);
      expect(stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([
        'error: cannot write to stdout (ENOSPC: no space left on its device); send the output somewhere that can be written',
      ]);
      expect(code, stderr).toBe(2);
    } finally {
      closeSync(full);
    }
  });
});

describe('an output on a stdout that was closed (`>&-`)', () => {
  it('compare R --json - >&-: one line naming the flag, exit 2 (not 0 with the JSON gone nowhere)', async () => {
    const child = spawn(
      'sh',
      ['-c', `exec "$0" --import tsx src/cli/main.ts compare "$1" --baselines "$2" --json - >&-`, process.execPath, temp.at('run.json'), temp.path],
      {
        cwd: ROOT,
        env: withEnv({ PERF_REQUIRE_BASELINE: '' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([
      'error: --json -: stdout is closed (EBADF), so the output would go nowhere; send stdout somewhere (e.g. > out.json), or name a file',
    ]);
    expect(code, stderr).toBe(2);
  });
});
