// Every path a command opens, as an output or an input, named as a FIFO, a socket, a character
// device or a link to one (issue 34): refused before anything opens it, with exit 2 and one line
// naming the flag and what the path is, in seconds (a regression hangs, so each case has its own
// time limit and fails instead), the device left as it was, and no process left behind. The
// conventional streams are the exception: `-` and /dev/stdout write to stdout, /dev/stderr to stderr.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBaseline } from '../results/baseline.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { cli, ROOT, withEnv } from '../../test/support/cli.js';

let dir: string;
let server: Server;
const at = (name: string) => join(dir, name);
/** Set, with a value of its own, in each command's environment: a process still running with it afterwards was left behind by that command (the cases run side by side). */
const MARK = 'GTP_SPECIAL_FILES_TEST';
const env = (mark: string) => withEnv({ [MARK]: mark });
/** A command that hangs is killed after this (the test then fails on its exit code, not on vitest's limit). */
const CLI_LIMIT_MS = 30_000;
const TEST_LIMIT_MS = 45_000;

/** The processes (pids) whose environment holds MARK=mark: started by that command and still running. */
async function leftBehind(mark: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const environ = await readFile(`/proc/${name}/environ`).catch(() => null);
    if (environ?.toString('utf8').split('\0').includes(`${MARK}=${mark}`)) pids.push(Number(name));
  }
  return pids;
}

/** Runs the CLI as a user does, with MARK in its environment; afterwards, whether anything it started is still running (those are stopped, by pid). */
async function run(args: string[]) {
  const mark = randomUUID();
  const result = await cli(args, ROOT, { env: env(mark), timeoutMs: CLI_LIMIT_MS });
  const stray = await leftBehind(mark);
  for (const pid of stray) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return { ...result, stray };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gtp-special-files-'));
  for (const name of ['fifo', 'fifo.json', 'fifo.md', 'fifo.html', 'fifo.prom']) execFileSync('mkfifo', [at(name)]);
  // A character device of our own (the same numbers as /dev/null: 1, 3), so replacing it would harm nothing here.
  execFileSync('mknod', [at('null'), 'c', '1', '3']);
  await symlink(at('fifo'), at('link-to-fifo.json'));
  server = createServer();
  await new Promise<void>((listening) => server.listen(at('socket'), listening));
  const record = testRunRecord([{ id: 'x.up', scenario: 'device-normalize', kind: 'exact', value: 50_176, unit: 'B' }]);
  await writeFile(at('run.json'), JSON.stringify(record));
  await writeFile(at('baseline.json'), JSON.stringify(makeBaseline(record, 'run.json', {})));
  // A baseline whose .prev (where the previous file is kept on acceptance) is a FIFO.
  await writeFile(at('kept.json'), JSON.stringify(makeBaseline(record, 'run.json', {})));
  execFileSync('mkfifo', [at('kept.json.prev')]);
  // A history with one (empty) profile folder: history checks --out before reading records.
  await mkdir(at('history/profile-a'), { recursive: true });
  // Inputs: a folder of doctor reports holding a FIFO, a sysfs copy whose link speed is a FIFO,
  // a Kinetics layout whose only video is a FIFO, an MNIST folder whose images file is one.
  await mkdir(at('reports'));
  execFileSync('mkfifo', [at('reports/doctor-1.json')]);
  await cp(join(ROOT, 'fixtures/sysfs/gen3-x8-degraded'), at('sysfs'), { recursive: true, verbatimSymlinks: true });
  const speed = at('sysfs/sys/devices/pci0000:15/0000:15:01.0/current_link_speed');
  await rm(speed);
  execFileSync('mkfifo', [speed]);
  for (const split of ['train', 'val']) {
    await mkdir(at(`kinetics/${split}/abseiling`), { recursive: true });
    execFileSync('mkfifo', [at(`kinetics/${split}/abseiling/b.mp4`)]);
  }
  await mkdir(at('perf-files'));
  execFileSync('mkfifo', [at('perf-files/01-x.perf.ts')]);
  await mkdir(at('mnist'));
  execFileSync('mkfifo', [at('mnist/train-images-idx3-ubyte')]);
}, TEST_LIMIT_MS);

afterAll(async () => {
  await new Promise((closed) => server?.close(closed));
  if (dir) await rm(dir, { recursive: true, force: true });
});

type Case = { name: string; args: () => string[]; cause: RegExp };
const compare = (...flags: string[]) => ['compare', at('run.json'), '--baseline', at('baseline.json'), ...flags];
const OUTPUTS: Case[] = [
  {
    name: 'perf --out FIFO',
    args: () => ['perf', '--scenario', 'mnist-loader', '--out', at('fifo.json')],
    cause: /--out .*fifo\.json: is a FIFO \(named pipe\), not a regular file; name a file$/,
  },
  {
    name: 'compare --json FIFO',
    args: () => compare('--json', at('fifo.json')),
    cause: /--json .*fifo\.json: is a FIFO \(named pipe\), not a regular file; name a file \(or - for stdout\)$/,
  },
  { name: 'compare --markdown FIFO', args: () => compare('--markdown', at('fifo.md')), cause: /--markdown .*fifo\.md: is a FIFO \(named pipe\)/ },
  {
    name: 'compare --json a link to a FIFO',
    args: () => compare('--json', at('link-to-fifo.json')),
    cause: /--json .*link-to-fifo\.json: is a FIFO \(named pipe\)/,
  },
  { name: 'compare --json a socket', args: () => compare('--json', at('socket')), cause: /--json .*socket: is a socket, not a regular file/ },
  { name: 'compare --json a character device', args: () => compare('--json', at('null')), cause: /--json .*null: is a character device, not a regular file/ },
  {
    name: 'compare --json a character device --force',
    args: () => compare('--json', at('null'), '--force'),
    cause: /--json .*null: is a character device, not a regular file/,
  },
  { name: 'doctor --json FIFO', args: () => ['doctor', '--json', at('fifo.json')], cause: /--json .*fifo\.json: is a FIFO \(named pipe\)/ },
  {
    name: 'history --out FIFO',
    args: () => ['history', '--history', at('history'), '--out', at('fifo.html')],
    cause: /--out .*fifo\.html: is a FIFO \(named pipe\)/,
  },
  {
    name: 'report --out FIFO',
    args: () => ['report', at('run.json'), '--baseline', at('baseline.json'), '--out', at('fifo.html')],
    cause: /--out .*fifo\.html: is a FIFO \(named pipe\)/,
  },
  {
    name: 'report --out a character device --force',
    args: () => ['report', at('run.json'), '--out', at('null'), '--force'],
    cause: /--out .*null: is a character device/,
  },
  { name: 'ab --json FIFO', args: () => ['ab', '--base', 'HEAD', '--json', at('fifo.json')], cause: /--json .*fifo\.json: is a FIFO \(named pipe\)/ },
  {
    name: 'bisect --json FIFO',
    args: () => ['bisect', '--good', 'HEAD~1', '--bad', 'HEAD', '--json', at('fifo.json')],
    cause: /--json .*fifo\.json: is a FIFO \(named pipe\)/,
  },
  {
    name: 'doctor --write-envelope FIFO',
    args: () => ['doctor', '--write-envelope', at('fifo.json'), '--from', at('reports')],
    cause: /--write-envelope .*fifo\.json: is a FIFO \(named pipe\)/,
  },
  {
    name: 'doctor --write-envelope a character device --force',
    args: () => ['doctor', '--write-envelope', at('null'), '--from', at('reports'), '--force'],
    cause: /--write-envelope .*null: is a character device/,
  },
  { name: 'doctor --prometheus FIFO', args: () => ['doctor', '--prometheus', at('fifo.prom')], cause: /--prometheus .*fifo\.prom: is a FIFO \(named pipe\)/ },
  {
    name: 'baseline --baseline FIFO',
    args: () => ['baseline', at('run.json'), '--baseline', at('fifo.json')],
    cause: /--baseline .*fifo\.json: is a FIFO \(named pipe\)/,
  },
  {
    name: 'baseline --baseline a character device',
    args: () => ['baseline', at('run.json'), '--baseline', at('null')],
    cause: /--baseline .*null: is a character device, not a regular file; name a file$/,
  },
  {
    name: 'baseline over a file whose .prev is a FIFO',
    args: () => ['baseline', at('run.json'), '--baseline', at('kept.json'), '--allow-dirty'],
    cause: /kept\.json\.prev \(where the previous baseline is kept\): is a FIFO \(named pipe\)/,
  },
  {
    name: 'baseline --baseline - (a baseline is a file)',
    args: () => ['baseline', at('run.json'), '--baseline', '-'],
    cause: /--baseline -: a baseline is a file/,
  },
  {
    name: 'perf --out - (the record is a file)',
    args: () => ['perf', '--scenario', 'mnist-loader', '--out', '-'],
    cause: /--out -: the run record must be a file/,
  },
  {
    name: 'compare: two outputs to stdout',
    args: () => compare('--json', '-', '--markdown', '/dev/stdout'),
    cause: /--json - is also --markdown \(both stdout\): give each output its own file/,
  },
];
const INPUTS: Case[] = [
  {
    name: 'perf --coco-ann FIFO',
    args: () => ['perf', '--scenario', 'coco', '--coco-root', join(ROOT, 'fixtures/coco/images'), '--coco-ann', at('fifo.json')],
    cause: /fifo\.json: a FIFO \(named pipe\), not a regular file, so not read; name the annotations file/,
  },
  {
    name: 'perf --kinetics-root with a FIFO named b.mp4',
    args: () => ['perf', '--scenario', 'kinetics', '--kinetics-root', at('kinetics')],
    cause: /skipped 1 not-a-file; e\.g\. .*b\.mp4: a FIFO \(named pipe\), not a regular file; not given to ffprobe/,
  },
  {
    name: 'perf --mnist-dir with a FIFO images file',
    args: () => ['perf', '--scenario', 'mnist-loader', '--mnist-dir', at('mnist')],
    cause: /train-images-idx3-ubyte: a FIFO \(named pipe\), not a regular file, so not read/,
  },
  {
    name: 'perf --dir with a FIFO named like a scenario file',
    args: () => ['perf', '--dir', at('perf-files')],
    cause: /perf-files\/01-x\.perf\.ts: a FIFO \(named pipe\), not a regular file; a scenario file must be a regular file$/,
  },
  {
    name: 'doctor --write-envelope F --from DIR holding a FIFO doctor-1.json',
    args: () => ['doctor', '--write-envelope', at('envelope.json'), '--from', at('reports')],
    cause: /--from .*reports\/doctor-1\.json: a FIFO \(named pipe\), not a regular file; name a doctor report/,
  },
  {
    name: 'doctor --write-envelope F --from FIFO',
    args: () => ['doctor', '--write-envelope', at('envelope.json'), '--from', at('fifo.json')],
    cause: /--from .*fifo\.json: a FIFO \(named pipe\), not a regular file/,
  },
  {
    name: 'doctor --sysfs-root with a FIFO current_link_speed',
    args: () => ['doctor', '--sysfs-root', at('sysfs')],
    cause: /--sysfs-root .*sysfs: .*current_link_speed is a FIFO \(named pipe\), not a regular file/,
  },
  {
    name: 'compare --baseline FIFO',
    args: () => ['compare', at('run.json'), '--baseline', at('fifo.json')],
    cause: /fifo\.json: a FIFO \(named pipe\), not a regular file, so not read/,
  },
  { name: 'compare RUN a character device', args: () => ['compare', at('null')], cause: /null: a character device, not a regular file, so not read/ },
];

describe('special files: refused up front, exit 2, one line, nothing left running', () => {
  // Side by side: each case is a CLI start that exits before measuring (about a second of CPU), and CI's time is capped.
  describe.concurrent('each path', () => {
    for (const c of [...OUTPUTS, ...INPUTS]) {
      it(
        c.name,
        async () => {
          const { code, stdout, stderr, stray } = await run(c.args());
          const errorLines = stderr.split('\n').filter((l) => l.startsWith('error: '));
          expect({ code, errorLines: errorLines.length, stray }, `stdout:\n${stdout}\nstderr:\n${stderr}`).toEqual({ code: 2, errorLines: 1, stray: [] });
          expect(errorLines[0]).toMatch(c.cause);
          expect(stderr).not.toMatch(/^\s+at /m);
        },
        TEST_LIMIT_MS,
      );
    }
  });

  it(
    'leaves the character device, the FIFOs and the socket as they were',
    async () => {
      expect((await lstat(at('null'))).isCharacterDevice()).toBe(true);
      expect((await lstat(at('fifo.json'))).isFIFO()).toBe(true);
      expect((await lstat(at('reports/doctor-1.json'))).isFIFO()).toBe(true);
      expect((await lstat(at('socket'))).isSocket()).toBe(true);
      expect((await lstat(at('link-to-fifo.json'))).isSymbolicLink()).toBe(true);
      expect(await readdir(dir)).not.toContain('envelope.json');
    },
    TEST_LIMIT_MS,
  );
});

describe('the standard streams as outputs', () => {
  it(
    'compare --json - (and /dev/stdout, a pipe here as under `| jq .`): stdout is only the JSON, the console goes to stderr',
    async () => {
      for (const name of ['-', '/dev/stdout']) {
        const { code, stdout, stderr, stray } = await run(compare('--json', name));
        expect({ code, stray }, stderr).toEqual({ code: 0, stray: [] });
        const json = JSON.parse(stdout) as { runProfile: unknown; verdicts: unknown[] };
        expect(json.verdicts.length).toBe(1);
        expect(stderr).toMatch(/^Run: .*run\.json/m);
      }
    },
    TEST_LIMIT_MS,
  );

  it(
    'compare --markdown /dev/stderr: the Markdown on stderr, the console on stdout as usual',
    async () => {
      const { code, stdout, stderr, stray } = await run(compare('--markdown', '/dev/stderr'));
      expect({ code, stray }, stderr).toEqual({ code: 0, stray: [] });
      expect(stderr).toMatch(/^### gpu-transfer-perf/m);
      expect(stdout).toMatch(/^Run: .*run\.json/m);
      expect(stdout).not.toContain('### gpu-transfer-perf');
    },
    TEST_LIMIT_MS,
  );

  it(
    'report --out -: the HTML page on stdout',
    async () => {
      const { code, stdout, stray } = await run(['report', at('run.json'), '--baseline', at('baseline.json'), '--out', '-']);
      expect({ code, stray }).toEqual({ code: 0, stray: [] });
      expect(stdout.startsWith('<!doctype html>')).toBe(true);
    },
    TEST_LIMIT_MS,
  );
});
