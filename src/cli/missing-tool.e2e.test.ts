// Runs that measure what they can (issue 35 item 2), from the real CLI with ffmpeg hidden
// (FFMPEG_PATH=/nonexistent): a run whose perf files include Kinetics' (copies of perf/'s, run
// with --dir, so that the run takes seconds, not the whole suite's minute) measures the others,
// skips Kinetics with its reason, exits 0, and its record is accepted as a baseline in a temp
// folder; naming Kinetics still stops up front (exit 2). The default run takes the same path:
// the skip is decided on the files asked for (runner/preflight.ts), --dir or perf/.
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT, withEnv } from '../../test/support/cli.js';
import { tempFolder } from '../../test/support/temp-folder.js';

/** This process's environment with ffmpeg out of reach, and no CI switch that would change the exit code. */
const env = withEnv({ FFMPEG_PATH: '/nonexistent', PERF_REQUIRE_BASELINE: '', PERF_GATE_TIMING: '' });
const REASON = 'ffmpeg not found (FFMPEG_PATH /nonexistent); install ffmpeg to measure it';

/** Kinetics' perf files and one other scenario's, as a project's perf/ folder. */
const PERF_FILES = ['02-cpu-normalize.spec.ts', '08-kinetics.perf.ts', '08-kinetics.spec.ts'];

const temp = tempFolder('gtp-no-ffmpeg-');
beforeAll(async () => {
  await mkdir(temp.at('perf'));
  for (const file of PERF_FILES) await copyFile(join(ROOT, 'perf', file), temp.at('perf', file));
});

describe('gtp perf without ffmpeg', () => {
  it('--scenario kinetics (named) stops up front with exit 2 and says how to get ffmpeg', async () => {
    for (const scenario of ['kinetics', '8']) {
      const { code, stderr } = await cli(['perf', '--scenario', scenario, '--out', temp.at('never.json')], undefined, { env });
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(/ffmpeg not found: cannot run "\/nonexistent" \(ENOENT; FFMPEG_PATH or PATH\); install it with /);
    }
  });

  it('measures every other scenario, says Kinetics was skipped and why, exits 0; the record becomes a baseline', async () => {
    const out = temp.at('run.json');
    const baselines = temp.at('baselines');
    // An empty baselines folder: no baseline to judge against, so the exit code is the scenarios' own.
    await mkdir(baselines);
    const perf = await cli(['perf', '--dir', temp.at('perf'), '--out', out, '--baselines', baselines], undefined, { env, timeoutMs: 300_000 });
    expect(perf.code, `${perf.stdout}\n${perf.stderr}`).toBe(0);
    expect(perf.stdout).toContain(`[gpu-transfer-perf] kinetics: skipped: ${REASON}`);
    expect(perf.stdout).toContain(`SKIPPED: kinetics: skipped: ${REASON}`);
    const record = JSON.parse(await readFile(out, 'utf8')) as {
      skipped: unknown;
      errors: unknown[];
      selection: string[];
      metrics: Array<{ scenario: string }>;
    };
    expect(record.skipped).toEqual([{ scenario: 'kinetics', reason: REASON }]);
    expect(record.errors).toEqual([]);
    expect(record.selection).toEqual([temp.at('perf/02-cpu-normalize.spec.ts')]);
    expect(record.metrics.some((m) => m.scenario === 'kinetics')).toBe(false);
    expect(new Set(record.metrics.map((m) => m.scenario))).toEqual(new Set(['cpu-normalize']));
    expect(await readFile(temp.at('run.html'), 'utf8')).toContain(`kinetics: skipped: ${REASON}`);

    const accepted = await cli(['baseline', out, '--baselines', baselines, '--history', temp.at('history'), '--allow-dirty'], undefined, { env });
    expect(accepted.code, `${accepted.stdout}\n${accepted.stderr}`).toBe(0);
    expect(accepted.stdout).toContain(`Left out: kinetics: skipped: ${REASON}`);
    const written = /^New baseline (\S+) /m.exec(accepted.stdout)![1]!;
    const baseline = JSON.parse(await readFile(written, 'utf8')) as { lacks: unknown };
    expect(baseline.lacks).toEqual([{ scenario: 'kinetics', reason: `skipped: ${REASON}` }]);

    // Judged against it: Kinetics named, not judged, the rest compared.
    const compared = await cli(['compare', out, '--baselines', baselines], undefined, { env });
    expect(compared.stdout).toContain(`kinetics: not judged, this run skipped it (${REASON})`);
    // The run against its own figures: every gating metric passes, so the skip costs nothing but Kinetics.
    expect(compared.code, compared.stdout).toBe(0);
  }, 300_000);
});
