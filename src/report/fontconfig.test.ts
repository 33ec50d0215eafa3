import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { fontconfigCandidates, lacksFontconfig, MINIMAL_FONTS_CONF } from './fontconfig.js';
import { tempFolder } from '../../test/support/temp-folder.js';

// Issue 34, item 6: on a machine with no fontconfig config, drawing the charts printed
// "Fontconfig error: Cannot load default config file" in every perf run.
const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('where fontconfig looks for its config', () => {
  it('FONTCONFIG_FILE as given when absolute, else in FONTCONFIG_PATH then /etc/fonts; all under FONTCONFIG_SYSROOT', () => {
    expect(fontconfigCandidates({})).toEqual(['/etc/fonts/fonts.conf']);
    expect(fontconfigCandidates({ FONTCONFIG_FILE: '/x/f.conf', FONTCONFIG_PATH: '/p' })).toEqual(['/x/f.conf']);
    expect(fontconfigCandidates({ FONTCONFIG_PATH: '/a:/b' })).toEqual(['/a/fonts.conf', '/b/fonts.conf', '/etc/fonts/fonts.conf']);
    expect(fontconfigCandidates({ FONTCONFIG_SYSROOT: '/root' })).toEqual(['/root/etc/fonts/fonts.conf']);
    expect(lacksFontconfig({}, (p) => p === '/etc/fonts/fonts.conf')).toBe(false);
    expect(lacksFontconfig({ FONTCONFIG_FILE: '/nonexistent' }, (p) => p === '/etc/fonts/fonts.conf')).toBe(true);
  });
});

describe('charts on a machine without a fontconfig config (real sharp, real fontconfig, in a child process)', () => {
  const temp = tempFolder('gtp-fontconfig-test-');
  beforeAll(async () => {
    await writeFile(
      temp.at('draw.mts'),
      [
        `import { writeCharts } from ${JSON.stringify(join(ROOT, 'src/report/charts.ts'))};`,
        `import { reportTestRecord } from ${JSON.stringify(join(ROOT, 'test/support/report.ts'))};`,
        'const { written } = await writeCharts(reportTestRecord(), process.argv[2]!);',
        "console.log(written.filter((p) => p.endsWith('.png')).length);",
      ].join('\n'),
    );
    // The control: sharp alone, as charts.ts drew before, in the same environment.
    await writeFile(
      temp.at('plain.mts'),
      [
        "import { createRequire } from 'node:module';",
        `const sharp = createRequire(${JSON.stringify(join(ROOT, 'package.json'))})('sharp');`,
        'const svg = \'<svg xmlns="http://www.w3.org/2000/svg" width="80" height="20"><text x="2" y="14">1.5x</text></svg>\';',
        'await sharp(Buffer.from(svg), { density: 144 }).png().toBuffer();',
      ].join('\n'),
    );
  });

  // A bare machine as fontconfig sees it: a sysroot with no etc/fonts (one child each: a start costs
  // seconds; a FONTCONFIG_FILE that does not exist is the pure check's case above).
  const bare = () => [{ FONTCONFIG_SYSROOT: temp.at('empty-root') }];

  it('the environment reproduces the error with sharp alone (so the test below can fail)', async () => {
    for (const vars of bare()) {
      const { stderr } = await run(join(ROOT, 'node_modules/.bin/tsx'), [temp.at('plain.mts')], { cwd: ROOT, env: { ...process.env, ...vars } });
      expect(stderr, JSON.stringify(vars)).toMatch(/Fontconfig error: Cannot load default config file/);
    }
  }, 60_000);

  it('writeCharts draws every PNG with nothing on stderr, and leaves no temp config behind', async () => {
    for (const [i, vars] of bare().entries()) {
      const out = temp.at(`run-${i}`, 'run.json');
      await run('mkdir', ['-p', temp.at(`run-${i}`)]);
      const before = (await readdir(tmpdir())).filter((n) => n.startsWith('gtp-fontconfig-') && !temp.path.endsWith(n));
      const { stdout, stderr } = await run(join(ROOT, 'node_modules/.bin/tsx'), [temp.at('draw.mts'), out], { cwd: ROOT, env: { ...process.env, ...vars } });
      expect(stderr, JSON.stringify(vars)).toBe('');
      expect(Number(stdout.trim())).toBe(8);
      const after = (await readdir(tmpdir())).filter((n) => n.startsWith('gtp-fontconfig-') && !temp.path.endsWith(n));
      expect(after.sort()).toEqual(before.sort());
    }
  }, 120_000);

  it('the config it writes names the usual font folders and a cache, nothing of this machine', () => {
    expect(MINIMAL_FONTS_CONF).toContain('<dir>/usr/share/fonts</dir>');
    expect(MINIMAL_FONTS_CONF).toContain('<cachedir prefix="xdg">fontconfig</cachedir>');
  });
});
