// One stream, one output (issue 41, item 3), through the real CLI: a job summary that is stdout
// (by name, or as the very file stdout was sent to) beside `--json -` is refused before anything
// is written, and so are two outputs naming stdout in different spellings. Before, the Markdown
// summary followed the JSON on stdout (exit 0, the JSON no longer parsed), and
// GITHUB_STEP_SUMMARY=- wrote a file named `-`.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT, withEnv } from '../../test/support/cli.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { makeBaseline } from '../results/baseline.js';
import { writeJsonAtomic } from '../results/storage.js';
import { tempFolder } from '../../test/support/temp-folder.js';

const temp = tempFolder('gtp-one-stream-');
const at = (name: string) => temp.at(name);
beforeAll(async () => {
  const record = testRunRecord([{ id: 'x.bytes', scenario: 'device-normalize', kind: 'exact', value: 1, unit: 'B' }]);
  await writeJsonAtomic(at('run.json'), record);
  await writeJsonAtomic(at(`${record.profile.id}.json`), makeBaseline(record, 'run.json', {}));
});

describe('one stream, one output', () => {
  it('GITHUB_STEP_SUMMARY=/dev/stdout with --json -: refused up front, exit 2, nothing on stdout', async () => {
    const { code, stdout, stderr } = await cli(['compare', at('run.json'), '--baselines', temp.path, '--json', '-'], temp.path, {
      env: withEnv({ GITHUB_STEP_SUMMARY: '/dev/stdout' }),
    });
    expect(stderr).toMatch(/^error: GITHUB_STEP_SUMMARY=\/dev\/stdout names stdout, not a job summary file/m);
    expect(stdout).toBe('');
    expect(code, stderr).toBe(2);
  });

  it('GITHUB_STEP_SUMMARY=- is refused, and no file named - is made', async () => {
    const { code, stderr } = await cli(['compare', at('run.json'), '--baselines', temp.path], temp.path, { env: withEnv({ GITHUB_STEP_SUMMARY: '-' }) });
    expect(stderr).toMatch(/^error: GITHUB_STEP_SUMMARY=- names stdout/m);
    expect(code).toBe(2);
    expect(existsSync(at('-'))).toBe(false);
  });

  it('GITHUB_STEP_SUMMARY naming the file stdout goes to (`> out.txt`): refused as stdout, the file left empty', async () => {
    const out = at('out.txt');
    const fd = openSync(out, 'w');
    try {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'main.ts'), 'compare', at('run.json'), '--baselines', temp.path, '--json', '-'],
        {
          cwd: ROOT,
          env: withEnv({ GITHUB_STEP_SUMMARY: out }),
          stdio: ['ignore', fd, 'pipe'],
        },
      );
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((done) => child.on('close', done));
      expect(stderr).toMatch(/names stdout, not a job summary file/);
      expect(code, stderr).toBe(2);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(out, 'utf8')).toBe('');
  });

  it('--json - and --markdown /dev/fd/1: refused, naming both', async () => {
    const { code, stdout, stderr } = await cli(['compare', at('run.json'), '--baselines', temp.path, '--json', '-', '--markdown', '/dev/fd/1'], temp.path);
    expect(stderr).toMatch(/^error: --json - is also --markdown \(both stdout\): give each output its own file$/m);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });
});
