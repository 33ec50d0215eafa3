// A bare `gtp` (no command, no flag) lists the commands and exits 2, measuring nothing (issue 41,
// item 7): it used to start the whole suite of perf files. `npm run perf` names perf itself.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { cli, ROOT, withEnv } from '../../test/support/cli.js';
import { tempFolder } from '../../test/support/temp-folder.js';

describe('a bare gtp', () => {
  it('lists the commands on stderr and exits 2; nothing measured', async () => {
    const { code, stdout, stderr } = await cli([]);
    expect(stderr).toMatch(/^error: no command given\nUsage /);
    expect(stderr).toMatch(/ doctor /);
    expect(`${stdout}${stderr}`).not.toContain('[gpu-transfer-perf] backend:');
    expect(code).toBe(2);
  });

  it('npm run perf still names the perf command', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.perf).toBe('exec node --import ./scripts/tsx-tmpdir.mjs --import tsx src/cli/main.ts perf');
  });
});

// Issue 51: with a TMPDIR where no folder can be made (a read-only file system; here a path
// through a file: ENOTDIR, the same failure without root), `npm run gtp` crashed in tsx's loader
// with a stack before the CLI started (tsx keeps its cache in $TMPDIR), and the built gtp failed
// each scenario in vitest. Both now refuse in one line naming TMPDIR, exit 2: a process boundary
// (the npm script's loaders, the bin) is what is tested.
describe('a TMPDIR that cannot hold a folder', () => {
  const temp = tempFolder('gtp-tmpdir-');
  const oneLine = (code: number | null, stderr: string, tmpdir: string) => {
    expect(code, stderr).toBe(2);
    expect(stderr).toBe(
      `error: TMPDIR=${tmpdir}: cannot make a temp folder in it (ENOTDIR); every command makes its temp folders there (vitest's, the A/B's checkouts, the charts' font config): point TMPDIR at a folder you can write, e.g. TMPDIR=$HOME/tmp\n`,
    );
  };

  it('npm run gtp: refused in one line, exit 2, before tsx could crash', async () => {
    await writeFile(temp.at('a-file'), '');
    const tmpdir = temp.at('a-file', 'tmp');
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((done) => {
      execFile(
        'npm',
        ['run', '--silent', 'gtp', '--', 'perf', '--scenario', 'memory'],
        { cwd: ROOT, env: withEnv({ TMPDIR: tmpdir }), timeout: 60_000 },
        (error, _out, err) => done({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr: err }),
      );
    });
    oneLine(code, stderr, tmpdir);
  }, 90_000);

  // The built bin only (the e2e run's build): tsx's own CLI, which a plain run of this file starts instead, needs the temp folder itself.
  it.skipIf(!inject('builtCli'))('the gtp bin (dist/cli/main.js): the same line, exit 2, nothing measured', async () => {
    await writeFile(temp.at('b-file'), '');
    const tmpdir = temp.at('b-file', 'tmp');
    const { code, stdout, stderr } = await cli(['perf', '--scenario', 'memory'], ROOT, { env: withEnv({ TMPDIR: tmpdir }) });
    oneLine(code, stderr, tmpdir);
    expect(stdout).toBe('');
  });
});
