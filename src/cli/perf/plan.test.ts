import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { OutputPathError } from '../../results/output-guard.js';
import { RecordFileError } from '../../results/storage.js';
import { parseCommandLine } from '../args.js';
import { UsageError } from '../usage-error.js';
import { type PerfArgs, planPerf } from './plan.js';
import { tempFolder } from '../../../test/support/temp-folder.js';

/** perf's arguments as the command line gives them, with no PERF_* variables. */
function perfArgs(argv: string[]): PerfArgs {
  const args = parseCommandLine(['perf', ...argv], {});
  if (args.command !== 'perf') throw new Error('not perf');
  return args;
}

const temp = tempFolder('gtp-perf-plan-');
/** An empty baselines folder: outputs may not go inside it. */
let baselines: string;
beforeAll(async () => {
  baselines = await mkdtemp(temp.at('baselines-'));
});

describe("perf's plan phase", () => {
  it('carries every flag the later phases need as plain values, the files asked and their RunConfig', async () => {
    const out = temp.at('run.json');
    const plan = await planPerf(
      perfArgs(['--scenario', '9', '--out', out, '--baselines', baselines, '--markdown', temp.at('v.md'), '--backend', 'cpu', '--gate-timing', '--verbose']),
    );
    expect(plan.files.map((f) => f.id)).toEqual(['memory']);
    expect(plan.config).toMatchObject({ backend: 'cpu', scale: 'quick', selection: [plan.files[0]!.path] });
    expect(plan).toMatchObject({
      skipped: [],
      processes: 1,
      verbose: true,
      out,
      baseline: { file: null, dir: baselines },
      judging: { allowProfileMismatch: false, gateTiming: true },
      requireBaseline: false,
      jobSummary: null,
      history: null,
    });
    expect(plan.exports.markdown).toBe(temp.at('v.md'));
    expect(typeof plan.color).toBe('boolean');
  });

  it('refuses what the user can get wrong before anything starts: a process count that cannot decide, a question with scenarios, a stream as --out', async () => {
    // Refused while parsing now, one line with the real range (issue 51), before any plan.
    expect(() => perfArgs(['--processes', '2'])).toThrow(/--processes must be 1 .* or a whole number from 6 to 200 .*got '2'/);
    await expect(planPerf(perfArgs(['--shape', '4x8x8x3', '--scenario', '9']))).rejects.toThrow(
      '--shape asks its own question: it does not go with --scenario or --dir',
    );
    await expect(planPerf(perfArgs(['--out', '-']))).rejects.toThrow(/^--out -: the run record must be a file/);
    // A browser's deadline without a browser, and one that is not whole seconds (issue 43, item 7).
    await expect(planPerf(perfArgs(['--browser-timeout', '30']))).rejects.toThrow('--browser-timeout goes with --browser chromium');
    expect(() => perfArgs(['--browser', 'chromium', '--browser-timeout', '0'])).toThrow(/--browser-timeout 0: expected whole seconds from 1 to 86400/);
    expect(() => perfArgs(['--browser', 'chromium', '--browser-timeout', '1.5'])).toThrow(UsageError);
    expect(perfArgs(['--browser', 'chromium', '--browser-timeout', '45']).browserTimeout).toBe(45);
  });

  it('checks the outputs and the baselines it will read: a foreign file at --out and a corrupt baseline stop it', async () => {
    const foreign = temp.at('notes.json');
    await writeFile(foreign, 'my notes\n');
    await expect(planPerf(perfArgs(['--scenario', '9', '--out', foreign]))).rejects.toThrow(OutputPathError);
    const broken = await mkdtemp(temp.at('broken-baselines-'));
    await writeFile(join(broken, 'webgpu-broken.json'), '{ not json');
    await expect(planPerf(perfArgs(['--scenario', '9', '--out', temp.at('ok.json'), '--baselines', broken]))).rejects.toThrow(RecordFileError);
  });

  it('a question runs its own file, its data read up front', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const plan = await planPerf(perfArgs(['--shape', '4x8x8x3', '--out', temp.at('q.json'), '--baselines', baselines]));
      expect(plan.files.map((f) => f.id)).toEqual(['shape']);
      expect(plan.config.question).toMatchObject({ kind: 'shape' });
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });
});
