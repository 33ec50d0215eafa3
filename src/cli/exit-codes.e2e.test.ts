// One truth for each exit code (issue 34, item 4): every command's `--help` lists its exit codes,
// docs/usage.md's "Exit codes by command" table lists the same lines, and each code is reached by
// the real CLI: here, in a child process, for every code that comes before anything is measured;
// the codes that need a measurement are checked by the named test of another file.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cli, ROOT, withEnv } from '../../test/support/cli.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { appendToHistory } from '../history/store.js';
import { makeBaseline } from '../results/baseline.js';
import type { GtpCommand } from '../base/commands.js';
import { helpText } from './args.js';
import { COMMANDS } from './commands.js';

/** A command's exit codes as its `--help` prints them: code -> its text (continuation lines joined). */
function helpExits(help: string): Map<number, string> {
  const section = help.split('\nExit codes:\n')[1] ?? '';
  const exits = new Map<number, string>();
  let last: number | null = null;
  for (const line of section.split('\n')) {
    const code = /^ {2}(\d) (.*)$/.exec(line);
    if (code) {
      last = Number(code[1]);
      exits.set(last, code[2]!);
    } else if (last !== null && /^ {4}\S/.test(line)) exits.set(last, `${exits.get(last)} ${line.trim()}`);
  }
  return exits;
}

/** docs/usage.md's "Exit codes by command" table: command -> code -> its text. */
function docsExits(markdown: string): Map<string, Map<number, string>> {
  const section = markdown.split('\n### Exit codes by command\n')[1]?.split('\n#')[0] ?? '';
  const table = new Map<string, Map<number, string>>();
  for (const row of section.split('\n')) {
    const cells = /^\| `([a-z]+)` \| (\d) \| (.*) \|$/.exec(row);
    if (!cells) continue;
    if (!table.has(cells[1]!)) table.set(cells[1]!, new Map());
    table.get(cells[1]!)!.set(Number(cells[2]), cells[3]!.replace(/\\\|/g, '|'));
  }
  return table;
}

let dir: string;
const at = (...parts: string[]) => join(dir, ...parts);
const exact = (id: string, value: number) => ({ id, scenario: 'device-normalize', kind: 'exact' as const, value, unit: 'B' });

/** A case run through the real CLI: its arguments, working directory and environment. */
interface Run {
  readonly args: () => string[];
  readonly cwd?: () => string;
  readonly env?: NodeJS.ProcessEnv;
  /** What the output must say (stdout and stderr together). */
  readonly says: RegExp;
  /** A report of checks that ends in this code (doctor), not a refusal of one error line. */
  readonly report?: true;
}
/** A code reached only by measuring: the test (file, title) that runs it, and what in it checks the code. */
interface Measured {
  readonly file: string;
  readonly test: string;
  readonly checks: RegExp;
}
type Reach = Run | Measured;

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe' });

/** Every exit code of every command, and how it is reached. */
const REACH: Record<GtpCommand, Record<number, Reach>> = {
  perf: {
    0: {
      file: 'src/package/pack.e2e.test.ts',
      test: "runs that project's perf files",
      checks: /perf\.code, perf\.output\)\.toBe\(sameProfile \|\| sameDeviceOtherHost\(record\.profile\.id, committedId\) \? 0 : 3\)/,
    },
    1: { file: 'src/package/pack.e2e.test.ts', test: 'a plain one-process gtp perf against a baseline', checks: /one\.code, one\.output\)\.toBe\(1\)/ },
    2: { args: () => ['perf', '--baselines', at('no-such-baselines')], says: /--baselines .*no-such-baselines: no such folder/ },
    3: { file: 'src/cli/other-cpu.e2e.test.ts', test: 'still exits 3 under PERF_REQUIRE_BASELINE=1', checks: /expect\(code, stdout\)\.toBe\(3\)/ },
  },
  doctor: {
    0: { args: () => ['doctor', '--sysfs-root', join(ROOT, 'fixtures/sysfs/gen5-x16-two-switches')], says: /0 failed/ },
    1: { args: () => ['doctor', '--sysfs-root', join(ROOT, 'fixtures/sysfs/gen3-x8-degraded')], says: /1 failed/ },
    2: {
      args: () => ['doctor', '--sysfs-root', at('garbled-sysfs')],
      says: /0000:1a:00\.0\/class: "not a class" is not a PCI class code.*UNKNOWN/,
      report: true,
    },
  },
  compare: {
    0: { args: () => ['compare', at('run.json'), '--baselines', at('bl')], says: /Baseline: / },
    1: { args: () => ['compare', at('changed.json'), '--baselines', at('bl')], says: /x\.up/ },
    2: { args: () => ['compare', at('corrupt.json')], says: /corrupt\.json: not valid JSON/ },
    3: { args: () => ['compare', at('run.json'), '--baselines', at('empty')], says: /no baseline/i },
  },
  baseline: {
    0: { args: () => ['baseline', at('run.json'), '--baseline', at('accepted.json'), '--history', at('accepted-history')], says: /accepted|Baseline/i },
    2: { args: () => ['baseline', at('failed-run.json'), '--baseline', at('refused.json'), '--history', at('refused-history')], says: /error/ },
  },
  calibrate: {
    0: {
      file: 'src/package/pack.e2e.test.ts',
      test: "measures each metric's spread with gtp calibrate",
      checks: /calibrated\.code, calibrated\.output\)\.toBe\(0\)/,
    },
    2: { args: () => ['calibrate', '--processes', '2'], says: /--processes must be a whole number from \d+ to 200 \(.*\), got '2'/ },
    3: { args: () => ['calibrate', '--processes', '3'], cwd: () => at('project'), says: /no node_modules\/gpu-transfer-perf in .*: run `npm install`/ },
  },
  report: {
    0: { args: () => ['report', at('run.json'), '--baselines', at('bl'), '--out', at('run-report.html')], says: /run-report\.html/ },
    1: { args: () => ['report', at('changed.json'), '--baselines', at('bl'), '--out', at('changed-report.html')], says: /changed-report\.html/ },
    2: { args: () => ['report', at('run.json'), '--baselines', at('no-such-baselines')], says: /no such folder/ },
    3: { args: () => ['report', at('other-data.json'), '--baselines', at('bl'), '--out', at('other-report.html')], says: /data/ },
  },
  ab: {
    0: { file: 'src/package/pack.e2e.test.ts', test: 'the pull-request job', checks: /expect\(ab\)\.toMatchObject\(\{ exitCode: 0 \}\)/ },
    1: {
      file: 'src/package/pack.e2e.test.ts',
      test: 'calls a commit that makes one strategy ~3x slower a regression',
      checks: /slower\.code, slower\.output\)\.toBe\(1\)/,
    },
    2: { args: () => ['ab', '--base', 'HEAD', '--scenario', '1', '--processes', '6'], says: /mnist-loader records no ratio or time metric/ },
    3: { args: () => ['ab', '--base', 'HEAD', '--processes', '6'], cwd: () => at('project'), says: /HEAD \(\w+\) does not depend on gpu-transfer-perf/ },
  },
  bisect: {
    0: { file: 'src/package/pack.e2e.test.ts', test: 'finds that commit with gtp bisect', checks: /found\.code, found\.output\)\.toBe\(0\)/ },
    // bisectCommand exits 1 exactly when the search names no culprit (result.culprit ? 0 : 1).
    1: { file: 'src/runner/bisect.test.ts', test: 'names the candidates when only skipped commits are left', checks: /culprit\)\.toBeNull\(\)/ },
    2: { args: () => ['bisect', '--good', 'HEAD'], says: /--good REF and --bad REF are both required/ },
    3: {
      args: () => ['bisect', '--good', 'HEAD~1', '--bad', 'HEAD', '--processes', '6'],
      cwd: () => at('project'),
      says: /does not depend on gpu-transfer-perf/,
    },
  },
  history: {
    0: { args: () => ['history', '--history', at('history'), '--out', at('history.html')], says: /Skipped 1 file\(s\).*\n.*truncated\.json: not valid JSON/ },
    2: { args: () => ['history', '--history', at('broken-history'), '--out', at('broken.html')], says: /none of its 1 file\(s\) is a usable record/ },
  },
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gtp-exit-codes-'));
  const good = testRunRecord([exact('x.up', 50_176)]);
  await writeFile(at('run.json'), JSON.stringify(good));
  await writeFile(at('changed.json'), JSON.stringify(testRunRecord([exact('x.up', 200_704)])));
  await writeFile(at('other-data.json'), JSON.stringify(testRunRecord([exact('x.up', 50_176)], { datasets: { mnist: 'MNIST idx files (60000 images)' } })));
  await writeFile(
    at('failed-run.json'),
    JSON.stringify({ ...good, errors: [{ scenario: 'device-normalize', test: 'sends 50,176 bytes', message: 'expected 200704 to be 50176' }] }),
  );
  await writeFile(at('corrupt.json'), '{"schemaVersion": 3, "metr');
  await mkdir(at('bl'));
  await mkdir(at('empty'));
  await writeFile(at('bl', `${good.profile.id}.json`), JSON.stringify(makeBaseline(good, 'run.json', {})));
  // A copy of a degraded machine's /sys whose GPU's class file is garbage: unknown, not absent.
  cpSync(join(ROOT, 'fixtures/sysfs/gen3-x8-degraded'), at('garbled-sysfs'), { recursive: true, dereference: false, verbatimSymlinks: true });
  const classFile = execFileSync('readlink', ['-f', at('garbled-sysfs/sys/bus/pci/devices/0000:1a:00.0/class')], { encoding: 'utf8' }).trim();
  expect(classFile.startsWith(dir)).toBe(true);
  await writeFile(classFile, 'not a class\n');
  // A history with one record and a truncated one; another with only the truncated one.
  await appendToHistory(at('history'), good);
  await writeFile(at('history', good.profile.id, 'truncated.json'), '{"schemaVersion": 3, "metr');
  await mkdir(at('broken-history', good.profile.id), { recursive: true });
  await writeFile(at('broken-history', good.profile.id, 'truncated.json'), '{"schemaVersion": 3, "metr');
  // A user's project (a git repository of two commits with a perf file) where gpu-transfer-perf is not installed.
  await mkdir(at('project', 'perf'), { recursive: true });
  git(at('project'), 'init', '-q', '-b', 'main');
  git(at('project'), 'config', 'user.email', 'exit@test');
  git(at('project'), 'config', 'user.name', 'exit codes test');
  git(at('project'), 'config', 'commit.gpgsign', 'false');
  for (const n of [1, 2]) {
    await writeFile(at('project', 'perf', 'mine.perf.ts'), `// version ${n}\n`);
    git(at('project'), 'add', '-A');
    git(at('project'), 'commit', '-q', '-m', `c${n}`);
  }
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('exit codes: --help, docs/usage.md and the code agree', () => {
  it('runs the built CLI, as installed in a project (the e2e run builds it: vitest.e2e.config.ts)', () => {
    // The cases of a user's project (calibrate, ab and bisect without the package) need the installed form.
    expect(inject('builtCli')).toBeTruthy();
  });

  it("lists the same codes and words in each command's --help and in docs/usage.md's table", () => {
    const docs = docsExits(readFileSync(join(ROOT, 'docs/usage.md'), 'utf8'));
    expect([...docs.keys()].sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    for (const spec of COMMANDS) {
      const help = helpExits(helpText(spec.name, false));
      expect(help.size, spec.name).toBeGreaterThan(1);
      expect(Object.fromEntries(docs.get(spec.name)!), spec.name).toEqual(Object.fromEntries(help));
      // Both forms of the help (here and installed) say the same.
      expect(helpExits(helpText(spec.name, true)), spec.name).toEqual(help);
    }
  });

  it('has a way to reach every listed code of every command, and nothing more', () => {
    for (const spec of COMMANDS) expect(Object.keys(REACH[spec.name]).map(Number), spec.name).toEqual([...helpExits(helpText(spec.name, false)).keys()]);
  });

  it('names, for each code that needs a measurement, a test that checks it', () => {
    for (const [command, codes] of Object.entries(REACH)) {
      for (const [code, reach] of Object.entries(codes)) {
        if (!('file' in reach)) continue;
        const text = readFileSync(join(ROOT, reach.file), 'utf8');
        const start = text.indexOf(reach.test);
        expect(start, `${command} ${code}: ${reach.file} has no test '${reach.test}'`).toBeGreaterThan(0);
        const end = text.indexOf('\n  it(', start);
        expect(text.slice(start, end === -1 ? undefined : end), `${command} ${code}`).toMatch(reach.checks);
      }
    }
  });

  const runs = Object.entries(REACH).flatMap(([command, codes]) =>
    Object.entries(codes).flatMap(([code, reach]) => ('args' in reach ? [{ name: `${command} exits ${code}`, code: Number(code), run: reach }] : [])),
  );
  it.each(runs)('$name before anything is measured, with no stack trace', async ({ code, run }) => {
    const env = withEnv({ PERF_REQUIRE_BASELINE: '', ...run.env });
    const result = await cli(run.args(), run.cwd?.() ?? ROOT, { env, timeoutMs: 60_000 });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(result.code, output).toBe(code);
    expect(output).toMatch(run.says);
    expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(output).not.toContain('[gpu-transfer-perf] backend:');
    if (code === 2 && !run.report)
      expect(
        result.stderr
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('error:')),
        result.stderr,
      ).toHaveLength(1);
  });

  it("ab and bisect in a folder without perf/ say what they need: the git repository's root, not a --dir they do not have", async () => {
    await mkdir(at('no-perf'), { recursive: true });
    for (const args of [
      ['ab', '--base', 'HEAD'],
      ['bisect', '--good', 'HEAD~1', '--bad', 'HEAD'],
    ]) {
      const { code, stdout, stderr } = await cli(args, at('no-perf'));
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(
        new RegExp(
          `^error: perf: no such folder of perf files here \\(.*\\); npx gtp ${args[0]} measures commits of the git repository it runs in: run it from that repository's root, where perf/ holds each commit's perf files \\(npx gtp ${args[0]} takes no --dir\\)$`,
          'm',
        ),
      );
      expect(`${stdout}${stderr}`).not.toMatch(/name the folder with --dir/);
    }
  });

  it('doctor --health-check on the garbled copy: could not judge (exit 2, one UNKNOWN line), not healthy', async () => {
    const { code, stdout, stderr } = await cli(['doctor', '--sysfs-root', at('garbled-sysfs'), '--health-check']);
    expect(code, stderr).toBe(2);
    expect(stdout.trim().split('\n')).toEqual([expect.stringMatching(/^UNKNOWN .*0000:1a:00\.0\/class: "not a class" is not a PCI class code/)]);
  });

  it('left no worktree behind in the project', () => {
    expect(git(at('project'), 'worktree', 'list').toString().trim().split('\n')).toHaveLength(1);
    expect(existsSync(at('project', 'node_modules'))).toBe(false);
  });
});
