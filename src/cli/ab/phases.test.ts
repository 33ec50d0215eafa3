import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { testAbResult } from '../../../test/support/ab-result.js';
import { OutputPathError } from '../../results/output-guard.js';
import { RunInputError } from '../../runner/perf.js';
import { parseCommandLine, UsageError } from '../args.js';
import { type AbCommandArgs, planAb } from './plan.js';
import { writeAb } from './write.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

const temp = tempFolder('gtp-ab-phases-');

function abArgs(argv: string[], env: NodeJS.ProcessEnv = {}): AbCommandArgs {
  const args = parseCommandLine(['ab', '--base', 'HEAD', ...argv], env);
  if (args.command !== 'ab') throw new Error('not ab');
  return args;
}

describe("ab's plan phase", () => {
  it('carries the arms, what they measure and every output as plain values', async () => {
    const json = temp.at('ab.json');
    const plan = await planAb(abArgs(['--processes', '6', '--ratios-only', '--json', json, '--junit', temp.at('ab.xml')]));
    expect(plan.measure).toEqual({ base: 'HEAD', head: null, scenarios: ['speedup', 'dtypes'], processes: 6, backend: 'auto', kinds: ['ratio'] });
    expect(plan).toMatchObject({ json, markdown: null, jobSummary: null });
    expect(plan.exports.map((t) => [t.flag, t.path])).toEqual([['--junit', temp.at('ab.xml')]]);
  });

  it('refuses before any checkout: too few processes, scenarios with nothing to judge, a foreign file as an output', async () => {
    // Too few processes: refused by the parser, the whole range in one line (issue 51); the plan's own check stays for the API.
    expect(() => abArgs(['--processes', '2'])).toThrow(/^--processes must be a whole number from 6 to 200 \(.*\), got '2'$/);
    await expect(planAb(abArgs(['--scenario', '1', '--processes', '6']))).rejects.toThrow(/mnist-loader records no ratio or time metric/);
    const foreign = temp.at('notes.md');
    await writeFile(foreign, 'my notes\n');
    await expect(planAb(abArgs(['--processes', '6', '--markdown', foreign]))).rejects.toThrow(OutputPathError);
  });
});

describe("ab's plan phase with --browser chromium", () => {
  it("carries the browser as perf takes it: the flags the user gave pass to the arms' processes, GTP_BROWSER_PATH through their environment", async () => {
    const plan = await planAb(abArgs(['--browser', 'chromium', '--processes', '6', '--ratios-only']));
    expect(plan.measure).toEqual({
      base: 'HEAD',
      head: null,
      scenarios: ['speedup'],
      processes: 6,
      backend: 'auto',
      kinds: ['ratio'],
      browser: { name: 'chromium', path: null, timeoutS: null },
    });
    const named = await planAb(
      abArgs(['--browser', 'chromium', '--browser-path', '/usr/bin/chromium', '--browser-timeout', '90', '--backend', 'webgl', '--processes', '6']),
    );
    expect(named.measure).toMatchObject({ backend: 'webgl', browser: { name: 'chromium', path: '/usr/bin/chromium', timeoutS: 90 } });
    const fromEnv = await planAb(abArgs(['--browser', 'chromium', '--processes', '6'], { GTP_BROWSER_PATH: '/usr/bin/chromium' }));
    expect(fromEnv.measure.browser).toEqual({ name: 'chromium', path: null, timeoutS: null });
  });

  it('refuses before any checkout what perf refuses: a backend no page runs, another browser, a missing Chromium, browser flags without --browser', async () => {
    await expect(planAb(abArgs(['--browser', 'chromium', '--backend', 'wasm', '--processes', '6']))).rejects.toThrow(
      new UsageError('--backend wasm does not run in a browser: --browser takes --backend webgpu or webgl'),
    );
    await expect(planAb(abArgs(['--browser', 'firefox', '--processes', '6']))).rejects.toThrow(RunInputError);
    await expect(planAb(abArgs(['--browser', 'chromium', '--browser-path', temp.at('no-chromium'), '--processes', '6']))).rejects.toThrow(
      /is not an executable file; install Chromium/,
    );
    await expect(planAb(abArgs(['--backend', 'webgl', '--processes', '6']))).rejects.toThrow(/--backend webgl runs in a browser only: add --browser chromium/);
    await expect(planAb(abArgs(['--browser-timeout', '90', '--processes', '6']))).rejects.toThrow(/--browser-timeout goes with --browser chromium/);
    expect(() => abArgs(['--browser', 'chromium', '--browser-timeout', '0'])).toThrow(/--browser-timeout 0: expected whole seconds from 1 to 86400/);
  });
});

describe("ab's write phase", () => {
  it('prints the verdicts, writes the files the plan named and the job summary, and exits with the result', async () => {
    const [json, markdown, summary] = [temp.at('w.json'), temp.at('w.md'), temp.at('summary.md')] as const;
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const result = testAbResult();
      expect(await writeAb({ json, markdown, exports: [], jobSummary: summary }, result)).toBe(result.exitCode);
      expect(JSON.parse(await readFile(json, 'utf8'))).toEqual(result);
      expect(await readFile(markdown, 'utf8')).toContain('mnist-transfer.speedup');
      expect(await readFile(summary, 'utf8')).toBe(await readFile(markdown, 'utf8'));
      expect(log.mock.calls.join('\n')).toContain('mnist-transfer.speedup');
    } finally {
      log.mockRestore();
    }
  });
});
