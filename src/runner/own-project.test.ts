// The pieces of ab, bisect and calibrate in a user's project that need no device: how commands
// are spelled there, which harness measures a checkout, and the calibration's arithmetic.
// The whole path (packed harness, real git, real processes) is src/package/pack.e2e.test.ts.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../test/support/temp-folder.js';
import { commandLine, commandName, FROM_SOURCES } from '../base/commands.js';
import { commandsHelp } from '../cli/args.js';
import { armHarness, dependsOnHarness, HARNESS_SOURCE } from './arm-harness.js';
import { sdUpperBound, smallestTolerance } from './calibrate.js';

describe('commands as typed where the harness runs', () => {
  it('are npm scripts in this repository and the bin where the package is installed', () => {
    expect(FROM_SOURCES).toBe(true); // these tests run the sources
    expect(HARNESS_SOURCE).toBe('sources');
    expect(commandLine('ab', '--base <ref>', true)).toBe('npm run perf:ab -- --base <ref>');
    expect(commandLine('ab', '--base <ref>', false)).toBe('npx gtp ab --base <ref>');
    expect(commandLine('perf', '', true)).toBe('npm run perf');
    expect(commandLine('doctor', '--quick', false)).toBe('npx gtp doctor --quick');
    expect(commandName('bisect', true)).toBe('perf:bisect');
    expect(commandName('bisect', false)).toBe('gtp bisect');
  });

  it("--help in a user's project names no npm script, its columns kept", () => {
    const installed = commandsHelp(false);
    const here = commandsHelp(true);
    expect(installed).not.toMatch(/npm run|perf:(ab|bisect|calibrate|compare|baseline|history)\b/);
    expect(installed).toMatch(/^ {2}npx gtp ab --base REF {2,}A\/B: processes of REF/m);
    // The description column stays where the sources' list has it.
    const column = (text: string, start: string) =>
      text
        .split('\n')
        .find((l) => l.startsWith(start))!
        .search(/\S+ of REF/);
    expect(column(installed, '  npx gtp ab ')).toBe(column(here, '  npm run perf:ab '));
  });
});

describe("the harness of a checkout in a user's project", () => {
  const temp = tempFolder('gtp-arm-');

  it('is its own node_modules/gpu-transfer-perf: the built measure host with node, or none', async () => {
    const dir = temp.path;
    expect(armHarness(dir, 'installed')).toBeNull();
    const pkg = join(dir, 'node_modules/gpu-transfer-perf');
    await mkdir(join(pkg, 'dist/cli'), { recursive: true });
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'gpu-transfer-perf', version: '9.8.7' }));
    // A harness from before the measure host: a perf command per process.
    expect(armHarness(dir, 'installed')).toMatchObject({ version: '9.8.7', host: null, perf: { command: process.execPath } });
    await writeFile(join(pkg, 'dist/cli/measure-host.js'), '');
    expect(armHarness(dir, 'installed')?.host).toEqual({ command: process.execPath, args: [join(pkg, 'dist/cli/measure-host.js')] });
    // A host from before the browser host measures in Node only: --browser then runs a command per launch.
    expect(armHarness(dir, 'installed')?.hostTakesBrowser).toBe(false);
    await mkdir(join(pkg, 'dist/runner'), { recursive: true });
    await writeFile(join(pkg, 'dist/runner/host-browser.js'), '');
    expect(armHarness(dir, 'installed')?.hostTakesBrowser).toBe(true);
  });

  it("in this repository's checkouts, the browser host is its sources' host-browser module", async () => {
    const dir = join(temp.path, 'checkout');
    await mkdir(join(dir, 'src/cli'), { recursive: true });
    await writeFile(join(dir, 'src/cli/measure-host.ts'), '');
    expect(armHarness(dir, 'sources')).toMatchObject({ hostTakesBrowser: false, host: { args: ['src/cli/measure-host.ts'] } });
    await mkdir(join(dir, 'src/runner'), { recursive: true });
    await writeFile(join(dir, 'src/runner/host-browser.ts'), '');
    expect(armHarness(dir, 'sources')?.hostTakesBrowser).toBe(true);
  });

  it('is named in package.json under any kind of dependency', () => {
    expect(dependsOnHarness(JSON.stringify({ dependencies: { 'gpu-transfer-perf': '0.1.0' } }))).toBe(true);
    expect(dependsOnHarness(JSON.stringify({ devDependencies: { 'gpu-transfer-perf': 'file:../x.tgz' } }))).toBe(true);
    expect(dependsOnHarness(JSON.stringify({ dependencies: { '@tensorflow/tfjs': '4.22.0' } }))).toBe(false);
    expect(dependsOnHarness('not json')).toBe(false);
  });
});

describe("calibrate's arithmetic", () => {
  it("bounds a spread from above with the chi-square quantile (Wilson-Hilferty within 0.5% of R's qchisq)", () => {
    // qchisq(0.05, 15) = 7.260944; qchisq(0.05, 39) = 25.69539
    expect(sdUpperBound(1, 15) / Math.sqrt(15 / 7.260944)).toBeCloseTo(1, 2);
    expect(sdUpperBound(1, 39) / Math.sqrt(39 / 25.69539)).toBeCloseTo(1, 2);
  });

  it('gives the tolerance an unchanged commit passes with at 8 + 8 processes, 95% of the time', () => {
    // (t(0.995, 14) + z(0.95)) * sd * sqrt(2/8) = (2.976843 + 1.644854) * 0.093 * 0.5 = 0.21491
    expect(smallestTolerance(0.093, 'ratio')).toBe(0.1); // (1 - exp(-0.21491)) / 2 = 0.0967, up to 10%
    expect(smallestTolerance(0.093, 'time')).toBe(0.12); // (exp(0.21491) - 1) / 2 = 0.1199
    expect(smallestTolerance(0.02, 'ratio')).toBe(0.025);
  });
});
