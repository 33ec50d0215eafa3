import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../test/support/temp-folder.js';
import { shownOutput } from '../base/shown.js';
import { envBoolean, parseCommandLine, runConfigFromEnv, shown, tempFolderProblem, UsageError, withLongValuesCut } from './args.js';
import { perfRunConfig } from './perf.js';

describe('command line', () => {
  it('defaults to perf on auto backend, quick scale, all scenarios', () => {
    expect(parseCommandLine([], {})).toEqual({
      command: 'perf',
      backend: 'auto',
      requireBackend: null,
      scale: 'quick',
      baseline: null,
      baselines: 'baselines',
      allowProfileMismatch: false,
      gateTiming: false,
      requireBaseline: false,
      exports: { markdown: null, json: null, bmf: null, junit: null, 'gab-bigger': null, 'gab-smaller': null },
      force: false,
      jobSummary: null,
      out: null,
      scenarios: [],
      data: { mnist: null, coco: null, kinetics: null },
      processes: 1,
      history: null,
      question: null,
      dir: null,
      verbose: false,
      videoTools: { ffmpeg: null, ffprobe: null },
      browser: null,
      browserPath: null,
      browserTimeout: null,
    });
  });

  it('reads flags, repeatable scenarios, and the environment where no flag is given', () => {
    const args = parseCommandLine(['perf', '--backend', 'wasm', '--scale', 'full', '--scenario', 'speedup', '--scenario', '9', '--out', 'r.json'], {});
    expect(args).toMatchObject({ backend: 'wasm', scale: 'full', scenarios: ['speedup', '9'], out: 'r.json' });
    expect(parseCommandLine(['perf', '--verbose'], {})).toMatchObject({ verbose: true });
    // --browser-path wins over GTP_BROWSER_PATH; each says where it came from (issue 43).
    expect(parseCommandLine(['perf', '--browser', 'chromium'], { GTP_BROWSER_PATH: '/opt/c' })).toMatchObject({
      browser: 'chromium',
      browserPath: { path: '/opt/c', from: 'GTP_BROWSER_PATH' },
    });
    expect(parseCommandLine(['perf', '--browser-path', '/x/chrome'], { GTP_BROWSER_PATH: '/opt/c' })).toMatchObject({
      browserPath: { path: '/x/chrome', from: '--browser-path' },
    });
    // doctor --browser reads the same flag and variable; without --browser the variable is not its business.
    expect(parseCommandLine(['doctor', '--browser', 'chromium'], { GTP_BROWSER_PATH: '/opt/c' })).toMatchObject({
      browser: 'chromium',
      browserPath: { path: '/opt/c', from: 'GTP_BROWSER_PATH' },
    });
    expect(parseCommandLine(['doctor'], { GTP_BROWSER_PATH: '/opt/c' })).toMatchObject({ browser: null, browserPath: null });
    expect(parseCommandLine([], { PERF_BACKEND: 'cpu' })).toMatchObject({ backend: 'cpu' });
    expect(parseCommandLine(['--backend', 'webgpu'], { PERF_BACKEND: 'cpu' })).toMatchObject({ backend: 'webgpu' });
    expect(parseCommandLine(['doctor'], { PERF_REQUIRE_BACKEND: 'webgpu' })).toMatchObject({ command: 'doctor', requireBackend: 'webgpu' });
    expect(parseCommandLine(['perf'], { PERF_GATE_TIMING: '1' })).toMatchObject({ gateTiming: true });
  });

  it("reads GitHub Actions' job summary file here, for perf, compare and ab alike (unset or empty: none)", () => {
    const env = { GITHUB_STEP_SUMMARY: '/tmp/step-summary.md' };
    expect(parseCommandLine(['perf'], env)).toMatchObject({ jobSummary: '/tmp/step-summary.md' });
    expect(parseCommandLine(['compare'], env)).toMatchObject({ jobSummary: '/tmp/step-summary.md' });
    expect(parseCommandLine(['ab', '--base', 'main'], env)).toMatchObject({ jobSummary: '/tmp/step-summary.md' });
    expect(parseCommandLine(['ab', '--base', 'main'], {})).toMatchObject({ jobSummary: null });
    expect(parseCommandLine(['compare'], { GITHUB_STEP_SUMMARY: '' })).toMatchObject({ jobSummary: null });
  });

  it("reads LD_LIBRARY_PATH here for doctor's CUDA library check (unset or empty: none)", () => {
    expect(parseCommandLine(['doctor'], { LD_LIBRARY_PATH: '/usr/local/cuda/lib64' })).toMatchObject({ ldLibraryPath: '/usr/local/cuda/lib64' });
    expect(parseCommandLine(['doctor'], { LD_LIBRARY_PATH: '' })).toMatchObject({ ldLibraryPath: null });
  });

  it('reads FFMPEG_PATH / FFPROBE_PATH here and hands them to the run in its RunConfig (unset or empty: PATH)', () => {
    const env = { FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg', FFPROBE_PATH: '' };
    const args = parseCommandLine(['perf'], env);
    if (args.command !== 'perf') throw new Error('not perf');
    expect(args.videoTools).toEqual({ ffmpeg: '/opt/ffmpeg/bin/ffmpeg', ffprobe: null });
    expect(perfRunConfig(args, [], {}).videoTools).toEqual({ ffmpeg: '/opt/ffmpeg/bin/ffmpeg', ffprobe: null });
    // A plain `vitest run` (the preset) reads them with the PERF_* variables.
    expect(runConfigFromEnv({ FFPROBE_PATH: '/opt/probe', PERF_SCALE: 'full' })).toMatchObject({
      scale: 'full',
      videoTools: { ffmpeg: null, ffprobe: '/opt/probe' },
    });
  });

  it('parses compare and baseline with an optional run file', () => {
    expect(parseCommandLine(['compare'], {})).toMatchObject({ command: 'compare', run: null, baseline: null });
    expect(parseCommandLine(['compare', 'r.json', '--baseline', 'b.json', '--allow-profile-mismatch', '--json', 'v.json'], {})).toMatchObject({
      run: 'r.json',
      baseline: 'b.json',
      allowProfileMismatch: true,
      exports: { markdown: null, json: 'v.json', bmf: null, junit: null, 'gab-bigger': null, 'gab-smaller': null },
    });
    expect(parseCommandLine(['baseline', 'r.json', '--allow-dirty'], {})).toEqual({
      command: 'baseline',
      run: 'r.json',
      target: null,
      baselines: 'baselines',
      allowDirty: true,
      allowPartial: false,
      merge: false,
      history: 'history',
    });
    expect(parseCommandLine(['compare', '--help'], {})).toEqual({ command: 'help', topic: 'compare' });
  });

  it('rejects unknown flags, bad values, flags of another command and stray arguments', () => {
    expect(() => parseCommandLine(['--fast'], {})).toThrow(UsageError);
    expect(() => parseCommandLine(['--backend', 'cuda'], {})).toThrow(/--backend must be one of auto\|webgpu\|wasm\|cpu\|tensorflow\|webgl, got 'cuda'/);
    expect(() => parseCommandLine(['--scale', 'huge'], {})).toThrow(/--scale must be one of quick\|full/);
    expect(() => parseCommandLine(['--backend'], {})).toThrow(UsageError);
    expect(() => parseCommandLine(['perf', 'extra'], {})).toThrow(/unexpected arguments: extra/);
    expect(() => parseCommandLine(['compare', 'a.json', 'b.json'], {})).toThrow(/unexpected arguments: b.json/);
    expect(() => parseCommandLine(['doctor', '--out', 'x'], {})).toThrow(UsageError);
    expect(() => parseCommandLine(['bench'], {})).toThrow(/command must be one of perf\|doctor\|compare\|baseline\|calibrate/);
    expect(() => parseCommandLine([], { PERF_BACKEND: 'gpu' })).toThrow(/got 'gpu'/);
  });

  it('reads a boolean variable as 1/0, true/false, yes/no, on/off in any case; unset or empty is the default', () => {
    for (const on of ['1', 'true', 'TRUE', 'True', 'yes', 'Yes', 'on', 'ON', ' yes ']) expect(envBoolean({ X: on }, 'X'), on).toBe(true);
    for (const off of ['0', 'false', 'FALSE', 'no', 'No', 'off', 'Off']) expect(envBoolean({ X: off }, 'X', true), off).toBe(false);
    expect(envBoolean({}, 'X')).toBe(false);
    expect(envBoolean({ X: '' }, 'X')).toBe(false);
    expect(envBoolean({ X: '  ' }, 'X', true)).toBe(true);
    for (const bad of ['2', 'y', 'enable', 'truee', '-1', 'nein']) {
      expect(() => envBoolean({ X: bad }, 'X'), bad).toThrow(UsageError);
      expect(() => envBoolean({ X: bad }, 'X')).toThrow(
        `X=${JSON.stringify(bad)} is not a boolean: use 1/0, true/false, yes/no or on/off (any case), or leave it unset or empty for the default (off)`,
      );
    }
  });

  it('turns no gate off by the way a CI writes a boolean (issue 30): PERF_REQUIRE_BASELINE and PERF_GATE_TIMING', () => {
    for (const command of ['perf', 'compare']) {
      for (const yes of ['1', 'true', 'yes', 'on', 'TRUE']) {
        expect(parseCommandLine([command], { PERF_REQUIRE_BASELINE: yes, PERF_GATE_TIMING: yes })).toMatchObject({ requireBaseline: true, gateTiming: true });
      }
      expect(parseCommandLine([command], { PERF_REQUIRE_BASELINE: 'no', PERF_GATE_TIMING: 'off' })).toMatchObject({
        requireBaseline: false,
        gateTiming: false,
      });
      expect(() => parseCommandLine([command], { PERF_REQUIRE_BASELINE: 'maybe' })).toThrow(
        /^PERF_REQUIRE_BASELINE="maybe" is not a boolean: use 1\/0, true\/false/,
      );
      // The flag does not hide a bad value of its variable.
      expect(() => parseCommandLine([command, '--gate-timing'], { PERF_GATE_TIMING: 'y' })).toThrow(/^PERF_GATE_TIMING="y" is not a boolean/);
    }
  });

  it('blames a bad value on the variable that gave it, not on a flag', () => {
    expect(() => parseCommandLine([], { PERF_BACKEND: 'bogus' })).toThrow(/^PERF_BACKEND must be one of .* got 'bogus'$/);
    expect(() => parseCommandLine([], { PERF_SCALE: 'huge' })).toThrow(/^PERF_SCALE must be one of quick\|full, got 'huge'$/);
    expect(() => parseCommandLine(['perf', '--scale', 'huge'], {})).toThrow(/^--scale must be one of/);
    expect(() => parseCommandLine(['ab', '--base', 'HEAD'], { PERF_BACKEND: 'bogus' })).toThrow(/^PERF_BACKEND must be one of/);
    expect(parseCommandLine(['perf', '--backend', 'cpu'], { PERF_BACKEND: 'bogus' })).toMatchObject({ backend: 'cpu' });
  });

  it('says in one line how to give a value that starts with a dash', () => {
    expect(() => parseCommandLine(['perf', '--processes', '-1'], {})).toThrow(
      /^perf: --processes needs a value; a value starting with '-' goes as --processes=VALUE$/,
    );
    expect(() => parseCommandLine(['perf', '--processes=-1'], {})).toThrow(/^--processes must be 1 \(.*\) or a whole number from 6 to 200 \(.*\), got '-1'$/);
  });

  it('takes --force on every command that writes output', () => {
    for (const argv of [['perf'], ['compare'], ['report'], ['doctor'], ['ab', '--base', 'HEAD']]) {
      expect(parseCommandLine([...argv, '--force'], {})).toMatchObject({ force: true });
    }
  });

  it('refuses a one-value flag given twice, naming it and both values (issue 41, item 3); repeatable flags stay lists', () => {
    expect(() => parseCommandLine(['compare', 'r.json', '--json', 'a.json', '--json', 'b.json'], {})).toThrow(
      /^compare: --json is given 2 times \(a\.json, b\.json\); it takes one value: give it once$/,
    );
    expect(() => parseCommandLine(['perf', '--out', 'a.json', '--out=b.json'], {})).toThrow(/^perf: --out is given 2 times \(a\.json, b\.json\)/);
    expect(() => parseCommandLine(['compare', '--force', '--force'], {})).toThrow(/^compare: --force is given 2 times; it takes one value: give it once$/);
    expect(parseCommandLine(['perf', '--scenario', '1', '--scenario', '6'], {})).toMatchObject({ scenarios: ['1', '6'] });
  });

  it('cuts a long value in a message: its start and its length, not 120,000 characters (issue 41, item 7)', () => {
    const long = 'x'.repeat(120_000);
    expect(shown('short')).toBe('short');
    expect(shown(long)).toBe(`${'x'.repeat(200)}... (120000 characters)`);
    expect(withLongValuesCut(`unknown scenario '${long}'. Known: a, b`)).toBe(`unknown scenario '${'x'.repeat(200)}... (120000 characters)'. Known: a, b`);
    let message = '';
    try {
      parseCommandLine(['perf', '--backend', long], {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^--backend must be one of .*, got 'x{200}\.\.\. \(120000 characters\)'$/);
  });
});

// Issue 51: a TMPDIR on a read-only file system crashed tsx's loader (`npm run gtp`) and failed
// each scenario in vitest (the built gtp). Every command now checks it first (src/cli/main.ts);
// the npm scripts' side is src/cli/bare-gtp.e2e.test.ts (a process boundary).
describe('tempFolderProblem: a temp folder every command can make its own in', () => {
  const temp = tempFolder('gtp-tmpdir-check-');
  const HOW =
    "every command makes its temp folders there (vitest's, the A/B's checkouts, the charts' font config): point TMPDIR at a folder you can write, e.g. TMPDIR=$HOME/tmp";

  it('takes a folder it can write in, and leaves nothing there', () => {
    expect(tempFolderProblem({ TMPDIR: temp.path })).toBeNull();
    expect(tempFolderProblem({ TMPDIR: `${temp.path}/` })).toBeNull();
    expect(readdirSync(temp.path)).toEqual([]);
  });

  it('names the variable Node took it from, the folder and the cause, in one line', async () => {
    await writeFile(temp.at('a-file'), '');
    const under = temp.at('a-file', 'tmp');
    expect(tempFolderProblem({ TMPDIR: under })).toBe(`TMPDIR=${under}: cannot make a temp folder in it (ENOTDIR); ${HOW}`);
    // Node's os.tmpdir(): TMPDIR, else TMP, else TEMP; an empty one is passed over.
    expect(tempFolderProblem({ TMPDIR: '', TMP: under })).toBe(`TMP=${under}: cannot make a temp folder in it (ENOTDIR); ${HOW}`);
    expect(tempFolderProblem({ TMPDIR: temp.at('no-such', 'tmp') })).toMatch(/^TMPDIR=\S+no-such\/tmp: cannot make a temp folder in it \(ENOENT\); /);
  });
});

describe('shownOutput: a program output quoted on one line', () => {
  it("quotes the first line, cut after 200 characters, and says how many lines there were (issue 51: /bin/true's seven)", () => {
    expect(shownOutput('Chromium 156.0.8078.114\n')).toBe("'Chromium 156.0.8078.114'");
    expect(shownOutput('true (GNU coreutils) 9.1\nCopyright\nLicense\nfree\nNO WARRANTY\n\nWritten by\n')).toBe(
      "'true (GNU coreutils) 9.1' (the first of its 7 lines)",
    );
    expect(shownOutput(`${'x'.repeat(300)}\nmore`)).toBe(`'${'x'.repeat(200)}... (300 characters)' (the first of its 2 lines)`);
    expect(shownOutput('')).toBe("''");
  });
});
