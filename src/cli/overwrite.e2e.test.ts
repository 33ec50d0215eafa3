// No command writes over a file it did not make: every output flag of every command against the
// files a user must not lose (a baseline, in baselines/ or kept elsewhere; a README; notes), as
// a user runs them (the real CLI in a child process). Each is refused up front, exit 2, with the
// file byte-identical afterwards and no device started; output of the same kind is replaced.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRunRecord } from '../../test/support/run-record.js';
import { cli, ROOT } from '../../test/support/cli.js';

let dir: string;
const at = (name: string) => join(dir, name);
const BASELINE = 'baselines/webgpu-lavapipe-x64.json';
const bytes = { id: 'x.up', scenario: 'device-normalize', kind: 'exact' as const, value: 50_176, unit: 'B' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gtp-overwrite-'));
  await mkdir(at('cwd/baselines'), { recursive: true });
  await copyFile(join(ROOT, BASELINE), at(`cwd/${BASELINE}`));
  await copyFile(join(ROOT, 'README.md'), at('cwd/README.md'));
  await copyFile(join(ROOT, BASELINE), at('kept-baseline.json'));
  await writeFile(at('notes.txt'), 'precious notes');
  await writeFile(at('run.json'), JSON.stringify(testRunRecord([bytes])));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

type Case = { name: string; args: () => string[]; cause: RegExp; cwd?: () => string; kept: () => string };
const README = () => at('cwd/README.md');
const inCwd = () => at('cwd');
const CASES: Case[] = [
  {
    name: 'doctor --json onto the baseline',
    args: () => ['doctor', '--json', BASELINE],
    cwd: inCwd,
    cause: /inside baselines\//,
    kept: () => at(`cwd/${BASELINE}`),
  },
  {
    name: 'doctor --json onto README.md',
    args: () => ['doctor', '--json', 'README.md'],
    cwd: inCwd,
    cause: /README.md exists and is another file, not a doctor report/,
    kept: README,
  },
  {
    name: 'compare --json onto the baseline',
    args: () => ['compare', at('run.json'), '--json', BASELINE],
    cwd: inCwd,
    cause: /inside baselines\//,
    kept: () => at(`cwd/${BASELINE}`),
  },
  {
    name: 'compare --markdown onto README.md',
    args: () => ['compare', at('run.json'), '--markdown', 'README.md'],
    cwd: inCwd,
    cause: /not a Markdown verdict summary/,
    kept: README,
  },
  {
    name: 'compare --json onto a baseline kept elsewhere',
    args: () => ['compare', at('run.json'), '--json', at('kept-baseline.json')],
    cause: /is a baseline: refusing/,
    kept: () => at('kept-baseline.json'),
  },
  { name: 'report --out onto README.md', args: () => ['report', at('run.json'), '--out', README()], cause: /not an HTML report/, kept: README },
  {
    name: 'perf --markdown onto README.md',
    args: () => ['perf', '--scenario', '9', '--markdown', README()],
    cause: /not a Markdown verdict summary/,
    kept: README,
  },
  {
    name: 'perf --json onto notes',
    args: () => ['perf', '--scenario', '9', '--json', at('notes.txt')],
    cause: /not a JSON verdict file/,
    kept: () => at('notes.txt'),
  },
  {
    name: 'perf --out onto a baseline kept elsewhere',
    args: () => ['perf', '--scenario', '1', '--out', at('kept-baseline.json')],
    cause: /is a baseline: refusing/,
    kept: () => at('kept-baseline.json'),
  },
  { name: 'ab --json onto README.md', args: () => ['ab', '--base', 'HEAD', '--json', README()], cause: /not an A\/B verdict file/, kept: README },
  {
    name: 'ab --markdown onto the baseline',
    args: () => ['ab', '--base', 'HEAD', '--markdown', at(`cwd/${BASELINE}`)],
    cause: /is a baseline: refusing/,
    kept: () => at(`cwd/${BASELINE}`),
  },
];

describe('output flags never overwrite a file of another kind', () => {
  it.each(CASES)('$name: exit 2 before measuring, file unchanged', async ({ args, cause, cwd, kept }) => {
    const before = await readFile(kept());
    const { code, stdout, stderr } = await cli(args(), cwd?.() ?? ROOT);
    expect(code, `${stdout}\n${stderr}`).toBe(2);
    expect(stderr).toMatch(cause);
    expect(stderr.trim().split('\n').length, stderr).toBe(1);
    expect(stdout).not.toContain('[gpu-transfer-perf] backend:'); // no device started
    expect(await readFile(kept())).toEqual(before);
  });

  it.each([
    ['report --out', (p: string) => ['report', at('run.json'), '--out', p]],
    ['compare --json', (p: string) => ['compare', at('run.json'), '--json', p, '--baseline', at('kept-baseline.json'), '--allow-profile-mismatch']],
  ] as const)('%s onto an unwritable place: exit 2, one line, no stack', async (_, args) => {
    const { code, stderr } = await cli(args('/proc/gtp-x.out'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot write into \/proc/);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('replaces output of its own kind, and another kind only with --force', async () => {
    const out = at('report.html');
    expect((await cli(['report', at('run.json'), '--out', out])).code).not.toBe(2);
    const first = await readFile(out, 'utf8');
    expect(first).toContain('<meta name="generator" content="gpu-transfer-perf">');
    expect((await cli(['report', at('run.json'), '--out', out])).code).not.toBe(2); // an earlier report: replaced
    await writeFile(at('other.html'), '<!doctype html><title>mine</title>');
    expect((await cli(['report', at('run.json'), '--out', at('other.html')])).code).toBe(2);
    expect(await readFile(at('other.html'), 'utf8')).toBe('<!doctype html><title>mine</title>');
    expect((await cli(['report', at('run.json'), '--out', at('other.html'), '--force'])).code).not.toBe(2);
    expect(await readFile(at('other.html'), 'utf8')).toContain('gpu-transfer-perf');
    // --force never replaces a baseline.
    expect((await cli(['report', at('run.json'), '--out', at('kept-baseline.json'), '--force'])).code).toBe(2);
  });
});

describe('inputs read at the end are checked before measuring', () => {
  it('a truncated --baseline stops perf at once: exit 2, no device started', async () => {
    await writeFile(at('cut.json'), (await readFile(join(ROOT, BASELINE), 'utf8')).slice(0, 5000));
    const { code, stdout, stderr } = await cli(['perf', '--scenario', '1', '--baseline', at('cut.json'), '--out', at('cut-run.json')]);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/cut.json: not valid JSON/);
    expect(stdout).not.toContain('[gpu-transfer-perf] backend:');
  });
});

describe('a folder of baselines of ones own (--baselines DIR)', () => {
  it('compare judges against DIR/<profile>.json, and perf:baseline writes there', async () => {
    const { makeBaseline } = await import('../results/baseline.js');
    await mkdir(at('mine'), { recursive: true });
    await writeFile(at('mine/webgpu-lavapipe-x64.json'), JSON.stringify(makeBaseline(testRunRecord([bytes]), 'run.json', {})));
    const judged = await cli(['compare', at('run.json'), '--baselines', at('mine')]);
    expect(judged.code, judged.stderr).toBe(0);
    expect(judged.stdout).toContain(`Baseline: ${at('mine/webgpu-lavapipe-x64.json')}`);
    // A folder that does not exist is a typo, not "no baseline": refused before anything is read (issue 34).
    const none = await cli(['compare', at('run.json'), '--baselines', at('nobody')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`--baselines ${at('nobody')}: no such folder`);
    // A default baseline of a folder must have read the embedded data, as ordinary runs do.
    const { mnistSource } = await import('../data/mnist/source.js');
    await writeFile(at('embedded-run.json'), JSON.stringify(testRunRecord([bytes], { datasets: { mnist: mnistSource.defaultDescription } })));
    const accepted = await cli(['baseline', at('embedded-run.json'), '--baselines', at('new-folder'), '--history', at('history')]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(JSON.parse(await readFile(at('new-folder/webgpu-lavapipe-x64.json'), 'utf8'))).toMatchObject({ accepted: { from: at('embedded-run.json') } });
  });
});
