// Non-UTF-8 bytes in a path (issue 41, item 7), through the real CLI with real bytes: a shell's
// printf puts byte 0xFF in the argument (a Node spawn can only pass UTF-8). Before, `--json
// $'out\xff.json'` wrote a file named `out\uFFFD.json` and exited 0, and an existing run record
// named `$'\xff.json'` was reported ENOENT. Now both are refused, exit 2, naming the flag (or the
// argument) with its bytes shown, and nothing is written. Through `npm run gtp` the bytes are gone
// before the CLI starts (npm, Node too, decodes them, and its process title replaces its /proc
// cmdline): refused all the same, as holding U+FFFD. A real U+FFFD given to the CLI is taken.
import { execFile } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cli, ROOT, withEnv } from '../../test/support/cli.js';
import { testRunRecord } from '../../test/support/run-record.js';
import { tempFolder } from '../../test/support/temp-folder.js';
import { makeBaseline } from '../results/baseline.js';
import { writeJsonAtomic } from '../results/storage.js';

const temp = tempFolder('gtp-raw-argv-e2e-');
const record = testRunRecord([{ id: 'x.bytes', scenario: 'device-normalize', kind: 'exact', value: 1, unit: 'B' }]);

/** A fresh folder with run.json and its profile's baseline in bl/; the names in it as bytes (hex) afterwards. */
async function folder(name: string): Promise<{ dir: string; names: () => string[] }> {
  const dir = temp.at(name);
  await mkdir(join(dir, 'bl'), { recursive: true });
  await writeJsonAtomic(join(dir, 'run.json'), record);
  await writeJsonAtomic(join(dir, 'bl', `${record.profile.id}.json`), makeBaseline(record, 'run.json', {}));
  return { dir, names: () => readdirSync(dir, { encoding: 'buffer' }).map((n) => n.toString('hex')) };
}

const hex = (s: string | Buffer) => Buffer.from(s).toString('hex');
/** `sh -c` that runs "$@" with one more argument: `printf`'s bytes (a shell printf turns \377 into byte 0xFF). */
const withBytes = (printf: string, before = '') => ['sh', '-c', `exec "$@" ${before} "$(printf '${printf}')"`, 'sh'];

describe('non-UTF-8 bytes in a path', () => {
  it('--json out\\xff.json: refused naming --json and its bytes, exit 2; no file under a U+FFFD name', async () => {
    const { dir, names } = await folder('flag');
    const before = names();
    const { code, stdout, stderr } = await cli(['compare', 'run.json', '--baselines', 'bl'], dir, { wrap: withBytes('out\\377.json', '--json') });
    expect(stderr).toMatch(/^error: compare: --json out\\xff\.json: not valid UTF-8 \(each \\xNN is a byte\); .*would name another file/m);
    expect(code, stderr).toBe(2);
    expect(stdout).toBe('');
    expect(names()).toEqual(before);
    expect(names()).not.toContain(hex('out\uFFFD.json'));
  });

  it('an existing run record named \\xff.json: refused as not valid UTF-8, not reported ENOENT', async () => {
    const { dir } = await folder('argument');
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0xff]), Buffer.from('.json')]), JSON.stringify(record));
    const { code, stderr } = await cli(['compare', '--baselines', 'bl'], dir, { wrap: withBytes('\\377.json') });
    expect(stderr).toMatch(/^error: compare: the argument \\xff\.json: not valid UTF-8/m);
    expect(stderr).not.toMatch(/ENOENT/);
    expect(code, stderr).toBe(2);
  });

  it('through npm run gtp (npm decodes the command line first): refused the same, nothing written', async () => {
    const { dir, names } = await folder('npm');
    const before = names();
    const npm = promisify(execFile)(
      'sh',
      ['-c', `exec npm run --silent gtp -- compare "$0/run.json" --baselines "$0/bl" --json "$0/$(printf 'out\\377.json')"`, dir],
      { cwd: ROOT, env: withEnv(), timeout: 60_000 },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    const { code, stderr } = await npm;
    expect(stderr).toMatch(
      /^error: compare: --json .*\/out\uFFFD\.json: holds U\+FFFD, .*a process before the CLI \(npm\) read the command line as UTF-8 first/m,
    );
    expect(code, stderr).toBe(2);
    expect(names()).toEqual(before);
  });

  it('a real U+FFFD in a name (bytes EF BF BD) is a valid name: written under it, exit 0', async () => {
    const { dir, names } = await folder('real');
    const { code, stderr } = await cli(['compare', 'run.json', '--baselines', 'bl', '--json', 'out\uFFFD.json'], dir);
    expect(code, stderr).toBe(0);
    expect(names()).toContain(hex('out\uFFFD.json'));
  });
});
