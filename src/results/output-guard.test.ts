import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeBaseline } from './baseline.js';
import { checkJobSummary, checkOutput, checkOutputs, OutputPathError, type OutputKind, writeOutput } from './output-guard.js';
import { FileWriteError } from './storage.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const temp = tempFolder('gtp-guard-');
const at = (name: string) => temp.at(name);
const file = async (name: string, content: string | Uint8Array) => {
  await writeFile(at(name), content);
  return at(name);
};
const check = (path: string, kind: OutputKind, force = false) => checkOutput({ path, kind, flag: '--x' }, { force });
const record = testRunRecord([{ id: 'a.bytes', scenario: 'a', kind: 'exact', value: 1, unit: 'B' }]);

describe('checkOutput', () => {
  it('allows a new file and creates its folder', async () => {
    await expect(check(at('new/sub/run.json'), 'run record')).resolves.toBeUndefined();
  });

  it('allows replacing output of the same kind', async () => {
    await expect(check(await file('run.json', JSON.stringify(record)), 'run record')).resolves.toBeUndefined();
    await expect(
      check(await file('r.html', '<!doctype html>\n<html><head><meta name="generator" content="gpu-transfer-perf">'), 'HTML report'),
    ).resolves.toBeUndefined();
    await expect(check(await file('v.md', '### gpu-transfer-perf: x vs baseline y (quick)\n'), 'Markdown verdict summary')).resolves.toBeUndefined();
    await expect(check(await file('v.json', JSON.stringify({ runProfile: 'p', verdicts: [] })), 'JSON verdict file')).resolves.toBeUndefined();
    await expect(check(await file('d.json', JSON.stringify({ kind: 'gpu-transfer-perf doctor report' })), 'doctor report')).resolves.toBeUndefined();
    await expect(check(await file('c.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'chart')).resolves.toBeUndefined();
  });

  it('refuses a file of another kind, naming what it is, unless forced', async () => {
    const notes = await file('notes.md', '# my notes\n');
    await expect(check(notes, 'Markdown verdict summary')).rejects.toThrow(
      /notes.md exists and is another file, not a Markdown verdict summary: refusing.*--force/,
    );
    await expect(check(notes, 'Markdown verdict summary', true)).resolves.toBeUndefined();
    const run = at('run.json');
    await expect(check(run, 'JSON verdict file')).rejects.toThrow(/is a run record, not a JSON verdict file/);
    await expect(check(await file('pkg.json', '{"name":"x"}'), 'run record')).rejects.toThrow(/another JSON file, not a run record/);
  });

  it('never replaces a baseline, forced or not, in baselines/ or anywhere', async () => {
    const kept = await file('kept-baseline.json', JSON.stringify(makeBaseline(record, 'run.json', {})));
    await expect(check(kept, 'run record')).rejects.toThrow(OutputPathError);
    await expect(check(kept, 'run record', true)).rejects.toThrow(/is a baseline: refusing/);
    await expect(check('baselines/anything.json', 'doctor report', true)).rejects.toThrow(/inside baselines\//);
  });

  it('refuses a path into the baselines folder through a symlink, and into a --baselines folder', async () => {
    await symlink(resolve('baselines'), at('linked'));
    await expect(check(at('linked/new.json'), 'run record')).rejects.toThrow(/inside baselines\/, the baselines folder/);
    await mkdir(at('mine'));
    const target = { path: at('mine/sub/run.json'), kind: 'run record', flag: '--out' } as const;
    await expect(checkOutput(target, { force: true, baselines: at('mine') })).rejects.toThrow(/inside .*mine\/, the baselines folder/);
    await expect(checkOutput(target, { force: false })).resolves.toBeUndefined();
  });

  it('refuses a folder, an unwritable place, and two outputs on one file', async () => {
    await mkdir(at('a-dir'));
    await expect(check(at('a-dir'), 'run record')).rejects.toThrow(/is a directory/);
    await expect(check('/proc/gtp.json', 'run record')).rejects.toThrow(/cannot write into \/proc/);
    const targets = [
      { path: at('same.json'), kind: 'run record', flag: '--out' },
      { path: at('./same.json'), kind: 'JSON verdict file', flag: '--json' },
    ] as const;
    await expect(checkOutputs(targets, { force: false })).rejects.toThrow(/--json .*same.json is also --out/);
  });

  // Issue 34: a FIFO was read to see what it held (the command hung), and --force replaced a device node with a file.
  it('refuses a FIFO, a socket, a character device and a link to one, forced or not, without opening them', async () => {
    execFileSync('mkfifo', [at('out-fifo.json')]);
    execFileSync('mknod', [at('out-null'), 'c', '1', '3']);
    await symlink(at('out-fifo.json'), at('out-link.json'));
    await symlink('gone.json', at('out-dangling.json'));
    for (const force of [false, true]) {
      await expect(check(at('out-fifo.json'), 'JSON verdict file', force)).rejects.toThrow(
        `--x ${at('out-fifo.json')}: is a FIFO (named pipe), not a regular file; name a file (or - for stdout)`,
      );
      await expect(check(at('out-null'), 'JSON verdict file', force)).rejects.toThrow(/out-null: is a character device, not a regular file; name a file/);
      await expect(check(at('out-link.json'), 'run record', force)).rejects.toThrow(
        /out-link\.json: is a FIFO \(named pipe\), not a regular file; name a file$/,
      );
      await expect(check(at('out-dangling.json'), 'run record', force)).rejects.toThrow(
        /out-dangling\.json: is a dangling symbolic link \(to gone\.json, which does not exist\)/,
      );
    }
    expect((await lstat(at('out-null'))).isCharacterDevice()).toBe(true);
    expect((await lstat(at('out-fifo.json'))).isFIFO()).toBe(true);
  }, 10_000);

  it('allows -, /dev/stdout and /dev/stderr, but not two outputs on one stream', async () => {
    for (const path of ['-', '/dev/stdout', '/dev/stderr', '/dev/fd/1']) await expect(check(path, 'JSON verdict file')).resolves.toBeUndefined();
    const both = [
      { path: '/dev/stdout', kind: 'JSON verdict file', flag: '--json' },
      { path: '-', kind: 'Markdown verdict summary', flag: '--markdown' },
    ] as const;
    await expect(checkOutputs(both, { force: false })).rejects.toThrow('--markdown - is also --json (both stdout): give each output its own file');
    const apart = [
      { path: '-', kind: 'JSON verdict file', flag: '--json' },
      { path: '/dev/stderr', kind: 'Markdown verdict summary', flag: '--markdown' },
    ] as const;
    await expect(checkOutputs(apart, { force: false })).resolves.toBeUndefined();
  });
});

describe('writeOutput', () => {
  it('writes a file atomically, and never renames over a FIFO that appeared after the check', async () => {
    await writeOutput(at('written.json'), '{"a":1}\n');
    expect(await readFile(at('written.json'), 'utf8')).toBe('{"a":1}\n');
    execFileSync('mkfifo', [at('late-fifo.json')]);
    const error = await writeOutput(at('late-fifo.json'), 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileWriteError);
    expect((error as Error).message).toBe(`${at('late-fifo.json')}: cannot write it (a FIFO (named pipe), not a regular file); what was there is unchanged`);
    expect((await lstat(at('late-fifo.json'))).isFIFO()).toBe(true);
  }, 10_000);
});

/**
 * GITHUB_STEP_SUMMARY (issue 30): it used to be appended to whatever it named (README.md got
 * 450 lines) and a missing folder or a directory crashed the command after measuring.
 */
describe('checkJobSummary', () => {
  const summary = (path: string) => checkJobSummary(path, {}, async () => 1e9);
  const message = async (path: string) => (await summary(path).catch((e: unknown) => e)) as Error;

  it("allows no summary, a new file, an empty file, GitHub step_summary_* files with other tools' Markdown, and one this tool began", async () => {
    await expect(checkJobSummary(null)).resolves.toBeUndefined();
    await expect(summary(at('new-summary.md'))).resolves.toBeUndefined();
    await mkdir(at('_runner_file_commands'));
    await expect(summary(await file('_runner_file_commands/step_summary_1f0e', ''))).resolves.toBeUndefined();
    await expect(summary(await file('_runner_file_commands/step_summary_2a9c', '## Unit tests\n\n42 passed\n'))).resolves.toBeUndefined();
    await expect(summary(await file('summary.md', '### gpu-transfer-perf: all 12 metrics pass\n'))).resolves.toBeUndefined();
    await expect(summary(await file('empty.md', ''))).resolves.toBeUndefined();
  });

  it('refuses README.md and any other file of another kind, in one line, leaving it as it was', async () => {
    const readme = await file('README.md', '# My project\n\nPrecious text.\n');
    const error = await message(readme);
    expect(error).toBeInstanceOf(OutputPathError);
    expect(error.message).toBe(
      `GITHUB_STEP_SUMMARY=${readme} is an existing file that is not a job summary (not empty, not GitHub's step_summary_* file, not begun by gpu-transfer-perf): refusing to append to it; unset it to write no job summary, or name a new or empty file`,
    );
    expect((await message(await file('run.json', JSON.stringify(record)))).message).toMatch(/is an existing file that is not a job summary/);
  });

  it('refuses a directory, a missing folder, a FIFO, a dangling link, the baselines folder and a full disk', async () => {
    await mkdir(at('summary-dir'));
    expect((await message(at('summary-dir'))).message).toBe(
      `GITHUB_STEP_SUMMARY=${at('summary-dir')} is a directory, not a job summary file; unset it to write no job summary, or name a file`,
    );
    expect((await message(at('no-such-folder/summary.md'))).message).toBe(
      `GITHUB_STEP_SUMMARY=${at('no-such-folder/summary.md')}: its folder ${at('no-such-folder')} does not exist (GitHub Actions creates it for each step); unset it to write no job summary, or name a file in an existing folder`,
    );
    execFileSync('mkfifo', [at('summary-fifo')]);
    expect((await message(at('summary-fifo'))).message).toMatch(/summary-fifo is a FIFO \(named pipe\), not a job summary file/);
    await symlink('gone.md', at('summary-link.md'));
    expect((await message(at('summary-link.md'))).message).toMatch(/summary-link.md is a dangling symbolic link: appending would create its target/);
    await expect(checkJobSummary(resolve('baselines/summary.md'), {}, async () => 1e9)).rejects.toThrow(/inside baselines\/, the baselines folder/);
    await expect(checkJobSummary(at('full.md'), {}, async () => 4096)).rejects.toThrow(
      `GITHUB_STEP_SUMMARY=${at('full.md')}: no space left on its file system (4096 bytes free); free some space, or unset it to write no job summary`,
    );
    for (const path of [at('summary-dir'), at('no-such-folder/summary.md'), at('summary-fifo')]) {
      expect((await message(path)).message.split('\n')).toHaveLength(1);
    }
  });

  it('refuses a summary that names a standard stream, by name or as the file stdout is (issue 41, item 3): never a file named -', async () => {
    for (const [path, stream] of [
      ['-', 'stdout'],
      ['/dev/stdout', 'stdout'],
      ['/dev/fd/1', 'stdout'],
      ['/dev/stderr', 'stderr'],
    ] as const) {
      const error = await message(path);
      expect(error).toBeInstanceOf(OutputPathError);
      expect(error.message).toMatch(new RegExp(`^GITHUB_STEP_SUMMARY=${path.replace(/\//g, '\\/')} names ${stream}, not a job summary file`));
    }
    expect((await message('-')).message).toBe(
      'GITHUB_STEP_SUMMARY=- names stdout, not a job summary file (GitHub Actions sets it to a file of its own); unset it to write no job summary, or write the Markdown to stdout with --markdown -',
    );
    // The file stdout is (`> out.txt` with GITHUB_STEP_SUMMARY=out.txt) is found by device and inode: src/cli/one-stream.e2e.test.ts.
    expect(existsSync('-')).toBe(false);
  });
});
