import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DataSources } from '../run-config.js';
import { RunInputError, scenarioFiles } from './perf.js';
import { preflightScenarios } from './preflight.js';

const NO_DATA: DataSources = { mnist: null, coco: null, kinetics: null };
/** ffmpeg where there is none (the real lookup, a path that does not exist). */
const NO_FFMPEG = { videoTools: { ffmpeg: '/nonexistent/ffmpeg', ffprobe: null } };

describe('preflightScenarios: a scenario whose tool is missing', () => {
  it('is skipped with its reason when the run named no scenario; the rest run', async () => {
    const all = scenarioFiles([]);
    const { files, skipped, datasets } = await preflightScenarios(NO_DATA, all, NO_FFMPEG, false);
    expect(skipped).toEqual([{ scenario: 'kinetics', reason: 'ffmpeg not found (FFMPEG_PATH /nonexistent/ffmpeg); install ffmpeg to measure it' }]);
    expect(files.map((f) => f.id)).not.toContain('kinetics');
    expect(files).toHaveLength(all.filter((f) => f.id !== 'kinetics').length);
    expect(Object.keys(datasets).sort()).toEqual(['coco', 'mnist']);
  }, 60_000);

  it('stops the run (exit 2) when the user named the scenario, or its data', async () => {
    const named = preflightScenarios(NO_DATA, scenarioFiles(['kinetics']), NO_FFMPEG, true);
    await expect(named).rejects.toThrow(RunInputError);
    await expect(preflightScenarios(NO_DATA, scenarioFiles(['8']), NO_FFMPEG, true)).rejects.toThrow(/ffmpeg not found: cannot run "\/nonexistent\/ffmpeg"/);
    // --kinetics-root names the data: a copy of the fixture elsewhere, which only ffmpeg can read.
    const copy = await mkdtemp(join(tmpdir(), 'gtp-kinetics-'));
    try {
      await cp('fixtures/kinetics', copy, { recursive: true });
      const data = { ...NO_DATA, kinetics: copy };
      await expect(preflightScenarios(data, scenarioFiles([]), NO_FFMPEG, false)).rejects.toThrow(/ffmpeg not found/);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }, 60_000);
});
