import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBaseline } from './baseline.js';
import { compareWithBaseline, EXIT, failingVerdicts } from './compare.js';
import { readRunRecord } from './storage.js';
import type { RunRecord } from './schema.js';

/**
 * The committed H200 profile (issue 35 item 3): the kit run of 2026-12-04 at 77cd524, accepted
 * with `gtp baseline` (quick, with the 12- and 6-process runs merged; full). Its four records are
 * in history/webgpu-nvidia-h200-x64/, as `gtp baseline` appended them; each is judged here against
 * the baseline of its scale, as `gtp compare` judges it.
 */
const HISTORY = 'history/webgpu-nvidia-h200-x64';
const BASELINES = { quick: 'baselines/webgpu-nvidia-h200-x64.json', full: 'baselines/webgpu-nvidia-h200-x64.full.json' } as const;

async function records(): Promise<RunRecord[]> {
  const names = (await readdir(HISTORY)).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(names.map((n) => readRunRecord(join(HISTORY, n))));
}

describe('the committed H200 profile', () => {
  // A round trip on real data, not a regression check: the baselines were accepted from these
  // records, so this pins that each still reads, is judged (not refused) and that the merge kept them consistent.
  it('judges each of the kit run records it was accepted from against the baseline of its scale: read, not refused, no gating regression', async () => {
    const runs = await records();
    expect(runs.map((r) => r.scale).sort()).toEqual(['full', 'quick', 'quick', 'quick']);
    for (const run of runs) {
      expect(run.profile.id).toBe('webgpu-nvidia-h200-x64');
      const comparison = compareWithBaseline(run, await readBaseline(BASELINES[run.scale]), { allowProfileMismatch: false, gateTiming: false });
      expect(comparison.refused).toBeNull();
      expect(failingVerdicts(comparison.verdicts, run.selection)).toEqual([]);
      // The quick run's three errors are the bit-equality checks of before the float bounds
      // (measure/float-bounds.ts): a run with errors never passes, whatever its metrics.
      expect(comparison.exitCode).toBe(run.errors.length > 0 ? EXIT.regression : EXIT.pass);
    }
  });

  it('says which scenarios the quick baseline lacks and why', async () => {
    const baseline = await readBaseline(BASELINES.quick);
    expect(baseline.lacks?.map((l) => l.scenario).sort()).toEqual(['alternatives', 'training']);
    expect(baseline.profile.adapter?.isSoftware).toBe(false);
    // The merged 12-process run: the speedup is judged on per-process values.
    const speedup = baseline.metrics.find((m) => m.id === 'mnist-transfer.speedup');
    expect(speedup?.processes?.length).toBe(12);
  });
});
