import { lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../test/support/temp-folder.js';
import {
  abbaOrder,
  abMeasureOptions,
  linkNodeModules,
  noRecordError,
  NothingToCompareError,
  nothingToJudgeReason,
  perfFlags,
  requireBrowserHarness,
  requirePerfFiles,
  runProcess,
  startHost,
} from './ab.js';
import type { ArmHarness } from './arm-harness.js';
import { RunInputError } from './perf.js';
import { ProcessLostError } from './process-lost.js';

const temp = tempFolder('gtp-ab-unit-');

describe('abbaOrder', () => {
  it('alternates which arm goes first, pair by pair (ABBA...)', () => {
    expect(abbaOrder(4)).toEqual([
      ['base', 'head'],
      ['head', 'base'],
      ['base', 'head'],
      ['head', 'base'],
    ]);
  });

  it('runs each arm once per pair, and as often first as second over an even number of pairs', () => {
    const order = abbaOrder(8);
    expect(order.every((pair) => new Set(pair).size === 2)).toBe(true);
    expect(order.filter(([first]) => first === 'base')).toHaveLength(4);
    expect(abbaOrder(0)).toEqual([]);
  });
});

describe('abMeasureOptions', () => {
  const flags = { scenarios: [] as string[], processes: 8, backend: 'auto' as const, ratiosOnly: false };
  it('defaults to the speedup and dtypes scenarios and judges ratios and times; --ratios-only ratios alone', () => {
    expect(abMeasureOptions(flags)).toEqual({ scenarios: ['speedup', 'dtypes'], processes: 8, backend: 'auto', kinds: ['ratio', 'time'] });
    expect(abMeasureOptions({ ...flags, scenarios: ['memory'], ratiosOnly: true })).toMatchObject({ scenarios: ['memory'], kinds: ['ratio'] });
  });
  it('refuses an unknown scenario before any checkout', () => {
    expect(() => abMeasureOptions({ ...flags, scenarios: ['no-such-scenario'] })).toThrow(RunInputError);
  });
  it('refuses fewer processes a side than can decide at the first look (6 at alpha 0.005), one included', () => {
    for (const processes of [1, 2, 5]) {
      expect(() => abMeasureOptions({ ...flags, processes })).toThrow(/cannot reach p < 0\.005 .*use --processes 6 or more \(8 recommended\)$/);
    }
    expect(abMeasureOptions({ ...flags, processes: 6 }).processes).toBe(6);
  });
});

describe('an A/B in the browser (--browser chromium)', () => {
  const flags = { scenarios: [] as string[], processes: 6, backend: 'auto' as const, ratiosOnly: true };
  const chromium = { name: 'chromium', path: null, timeoutS: null };

  it('defaults to the browser MNIST speedup, looks in perf/browser/ for what is named, and carries the browser', () => {
    expect(abMeasureOptions({ ...flags, browser: chromium })).toEqual({
      scenarios: ['speedup'],
      processes: 6,
      backend: 'auto',
      kinds: ['ratio'],
      browser: chromium,
    });
    expect(abMeasureOptions({ ...flags, scenarios: ['sweep'], browser: chromium }).scenarios).toEqual(['sweep']);
    // training is a Node scenario (perf/), not a browser one.
    expect(() => abMeasureOptions({ ...flags, scenarios: ['training'] })).not.toThrow();
    expect(() => abMeasureOptions({ ...flags, scenarios: ['training'], browser: chromium })).toThrow(/unknown scenario 'training'. Known: speedup \(06\)/);
  });

  it("gives each arm's perf process --browser, and --browser-path and --browser-timeout only where the user gave them", () => {
    expect(perfFlags({ scenarios: ['speedup'], backend: 'webgl', browser: chromium })).toEqual([
      '--scenario',
      'speedup',
      '--backend',
      'webgl',
      '--browser',
      'chromium',
    ]);
    expect(perfFlags({ scenarios: [], backend: 'auto', browser: { name: 'chromium', path: '/opt/chromium/chrome', timeoutS: 90 } })).toEqual([
      '--backend',
      'auto',
      '--browser',
      'chromium',
      '--browser-path',
      '/opt/chromium/chrome',
      '--browser-timeout',
      '90',
    ]);
    expect(perfFlags({ scenarios: ['speedup'], backend: 'webgpu' })).toEqual(['--scenario', 'speedup', '--backend', 'webgpu']);
  });

  it('judges what the browser baseline records: the browser memory scenario has no ratio, the Node one is not asked', async () => {
    await expect(nothingToJudgeReason({ scenarios: ['memory'], kinds: ['ratio'], browser: chromium })).resolves.toMatch(
      /the scenario memory records no ratio metric \(baselines\/web(gpu|gl)-chromium-156-[^)]+ lists its metrics\)/,
    );
    await expect(nothingToJudgeReason({ scenarios: ['speedup'], kinds: ['ratio'], browser: chromium })).resolves.toBeNull();
  });

  it('a checkout without perf/browser/ (a commit from before the browser host) is nothing to compare, saying which commits can be', async () => {
    const at = 'old (8c2043a00000)';
    const checkout = temp.at('old');
    await mkdir(`${checkout}/perf`, { recursive: true });
    await writeFile(`${checkout}/perf/06-speedup.perf.ts`, '');
    expect(() => requirePerfFiles(at, checkout, { scenarios: ['speedup'] })).not.toThrow();
    expect(() => requirePerfFiles(at, checkout, { scenarios: ['speedup'], browser: chromium })).toThrow(NothingToCompareError);
    expect(() => requirePerfFiles(at, checkout, { scenarios: ['speedup'], browser: chromium })).toThrow(
      /^old \(8c2043a00000\) has no perf files in perf\/browser\/ .*cannot run in a browser.*at or after the first commit with perf\/browser\/ \(`git log --reverse -- perf\/browser` shows it first\)$/,
    );
    await mkdir(`${checkout}/perf/browser`);
    await writeFile(`${checkout}/perf/browser/07-coco.perf.ts`, '');
    expect(() => requirePerfFiles(at, checkout, { scenarios: ['speedup'], browser: chromium })).toThrow(
      /lacks a scenario you named: unknown scenario 'speedup'/,
    );
    expect(() => requirePerfFiles(at, checkout, { scenarios: [], browser: chromium })).not.toThrow();
  });

  it('an installed harness whose perf --help has no --browser is nothing to compare (read from its own help)', async () => {
    const harnessPrinting = async (name: string, help: string): Promise<ArmHarness> => {
      const script = temp.at(`${name}.mjs`);
      await writeFile(script, `console.log(${JSON.stringify(help)});`);
      const launch = { command: process.execPath, args: [script, 'perf'] };
      return { source: 'installed', version: name, host: null, hostTakesBrowser: false, perf: launch };
    };
    const old = await harnessPrinting('0.9.0', 'Usage: npx gtp perf [options]\n  --backend NAME  ...\n  --out FILE      ...');
    await expect(requireBrowserHarness('base (abc)', old)).rejects.toThrow(
      /^base \(abc\): its gpu-transfer-perf 0\.9\.0 has no `perf --browser`, so it cannot run in a browser/,
    );
    const now = await harnessPrinting('1.0.0', 'Usage: npx gtp perf [options]\n  --browser chromium      run the perf files');
    await expect(requireBrowserHarness('base (abc)', now)).resolves.toBeUndefined();
  });
});

describe("an arm's measure host", () => {
  const chromium = { name: 'chromium', path: null, timeoutS: null };
  // A program that would fail loudly if started: the arm must not start it.
  const host = { command: '/nonexistent/measure-host', args: [] };
  const arm = (hostTakesBrowser: boolean) => ({
    name: 'base' as const,
    label: 'HEAD~1 (8c2043a00000)',
    commit: '8c2043a',
    dir: temp.path,
    records: [],
    harness: { source: 'sources' as const, version: null, host, hostTakesBrowser, perf: host },
    host: null,
  });

  it('is not started for --browser where the harness has a Node-only host: that commit is measured a perf --browser command per launch', () => {
    const old = arm(false);
    startHost(old, { scenarios: ['speedup'], backend: 'webgpu', browser: chromium });
    expect(old.host).toBeNull();
  });
});

describe('linkNodeModules', () => {
  it("links a checkout's node_modules whole, or with --browser as a folder of links less .vite (each root its own Vite cache)", async () => {
    const from = temp.at('nm');
    for (const dir of ['a', '@scope/b', '.bin', '.vite/vitest']) await mkdir(`${from}/${dir}`, { recursive: true });
    await linkNodeModules(from, temp.at('whole'), false);
    expect((await lstat(temp.at('whole'))).isSymbolicLink()).toBe(true);
    await linkNodeModules(from, temp.at('own'), true);
    expect((await lstat(temp.at('own'))).isDirectory()).toBe(true);
    expect((await readdir(temp.at('own'))).sort()).toEqual(['.bin', '@scope', 'a']);
    expect((await lstat(temp.at('own', '@scope'))).isSymbolicLink()).toBe(true);
  });
});

// Issue 51, item 1: a base whose browser perf file does not load measured nothing; ab said "a metric
// regressed" (exit 1) after an `Error:` line with a stack. Its arm's real `perf` ends with these lines.
describe("an arm's process that writes no run record", () => {
  const broken = [
    'perf files 1/1 files (100%) done in 0:25 | no test failed',
    'error: speedup: perf/browser/06-speedup.perf.ts:3:13: Unexpected token',
    '',
    'No run record: no scenario reached a backend (see the errors above).',
  ].join('\n');

  it('that measured nothing is nothing to compare (exit 3): one line naming the commit and the load error', async () => {
    const script = temp.at('broken-perf.mjs');
    await writeFile(script, `process.stderr.write(${JSON.stringify(`${broken}\n`)}); process.exitCode = 1;`);
    const harness: ArmHarness = { source: 'sources', version: null, host: null, hostTakesBrowser: false, perf: { command: process.execPath, args: [script] } };
    const arm = { name: 'base' as const, label: 'HEAD~1 (8c2043a00000)', commit: '8c2043a', dir: temp.path, records: [], harness, host: null };
    const failed = runProcess(
      arm,
      { scenarios: ['speedup'], backend: 'auto', browser: { name: 'chromium', path: null, timeoutS: null } },
      temp.at('none.json'),
    );
    await expect(failed).rejects.toThrow(NothingToCompareError);
    await expect(failed).rejects.toThrow(
      /^HEAD~1 \(8c2043a00000\): nothing was measured there: speedup: perf\/browser\/06-speedup\.perf\.ts:3:13: Unexpected token; fix its perf files or pick another commit/,
    );
    const message = await failed.then(
      () => '',
      (e: Error) => e.message,
    );
    expect(message.split('\n')).toHaveLength(1);
  });

  it('that was lost on the way (a browser gone) is exit 1, its last word in one line; never a plain Error with a stack', () => {
    const lost = noRecordError('head (abc)', 'error: process 1 of 1 in Chromium 156: the browser closed before the run finished\n', 1, 'ENOENT');
    expect(lost).toBeInstanceOf(ProcessLostError);
    expect(lost.message).toBe(
      'head (abc): its process ended (1) without a run record, so the A/B cannot go on: process 1 of 1 in Chromium 156: the browser closed before the run finished',
    );
    expect(noRecordError('head (abc)', '', 'SIGKILL', "ENOENT: no such file or directory, open 'x.json'").message).toMatch(/ended \(SIGKILL\) .*: ENOENT/);
    expect(noRecordError('base (abc)', 'No run record: no scenario reached a backend (see the errors above).', 1, '')).toBeInstanceOf(NothingToCompareError);
  });
});
