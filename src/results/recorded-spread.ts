import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pooledSpread } from './calibration.js';
import type { KnownSpread } from './process-verdict.js';
import { profileFilePath } from './profile-files.js';
import type { RunRecord } from './schema.js';
import { parseRunRecord, readRegularFile, regularFilesOf } from './storage.js';

/**
 * Each ratio's own between-process spread, pooled over the profile's recorded multi-process runs.
 *
 * Why: a K-process baseline's SD is itself an estimate with K - 1 degrees of freedom (with 8
 * processes its 95% interval for the true spread runs from about 0.66 to 2.0 times it), and how
 * much processes move differs between sittings. On the CI's AMD machine the 8 baseline processes of
 * dtypes.32x3x224x224 float16 spread 9.8%, an earlier sitting's 8 spread 26%; an unchanged CI run
 * then landed 43.7% below the baseline, beyond the bound the 9.8% alone gave (stop 46). Pooling
 * every recorded sitting, each run about its own mean (a shift between runs does not count: it may
 * be a change of code), is the spread unchanged processes of this metric showed; it floors the
 * prediction interval as the calibration's spread does (results/verdict.ts spreadFor).
 */

/** The newest recorded runs read: enough sittings for the spread, a bounded read as the history grows. */
const RECORDED_RUNS_READ = 50;

/**
 * Per ratio metric, the pooled within-run spread of log per-process values over `runs` of one
 * scale (calibration.ts pooledSpread); a metric needs one run with >= 2 values. Runs holding the
 * very same values (the baseline and its own history entry) count once.
 */
export function spreadsOfRuns(runs: ReadonlyArray<Pick<RunRecord, 'metrics' | 'scale'>>, scale: RunRecord['scale'], source: string): Map<string, KnownSpread> {
  const groups = new Map<string, Map<string, readonly number[]>>();
  for (const run of runs) {
    if (run.scale !== scale) continue;
    for (const m of run.metrics) {
      if (m.kind !== 'ratio' || !m.processes || m.processes.length < 2 || !m.processes.every((x) => x > 0)) continue;
      const byValues = groups.get(m.id) ?? new Map<string, readonly number[]>();
      byValues.set(JSON.stringify(m.processes), m.processes);
      groups.set(m.id, byValues);
    }
  }
  const spreads = new Map<string, KnownSpread>();
  for (const [id, byValues] of groups) {
    const runsWithIt = byValues.size;
    const spread = pooledSpread([...byValues.values()], (n) => `${n} processes in ${runsWithIt} recorded run${runsWithIt === 1 ? '' : 's'} of ${source}`);
    if (spread && spread.sd > 0) spreads.set(id, spread);
  }
  return spreads;
}

/** Where the recorded runs of a baseline's profile are: the history folder beside its baselines folder (history/<profile>/). */
export function recordedRunsDir(baselinePath: string, profileId: string): string {
  return profileFilePath(join(dirname(dirname(baselinePath)), 'history'), profileId, 'history');
}

/**
 * The per-metric spreads of `baseline` and its profile's recorded runs of the same scale (the
 * newest RECORDED_RUNS_READ in recordedRunsDir). A file there that is not a run record of this
 * profile is left out: it cannot widen or narrow anything, and `perf:history` names it.
 */
export async function readRecordedSpreads(baselinePath: string, baseline: Pick<RunRecord, 'metrics' | 'scale' | 'profile'>): Promise<Map<string, KnownSpread>> {
  const dir = recordedRunsDir(baselinePath, baseline.profile.id);
  // <commit>-<time>.json: the newest by the time part.
  const timeOf = (name: string) => name.replace(/^[^-]*-/, '');
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
    .sort((a, b) => (timeOf(a) < timeOf(b) ? 1 : timeOf(a) > timeOf(b) ? -1 : 0))
    .slice(0, RECORDED_RUNS_READ);
  const runs: Array<Pick<RunRecord, 'metrics' | 'scale'>> = [baseline];
  for (const { path } of (await regularFilesOf(dir, names)).files) {
    try {
      const record = parseRunRecord(path, (await readRegularFile(path)).toString('utf8'));
      if (record.profile.id === baseline.profile.id) runs.push(record);
    } catch {
      // Not a run record: perf:history reports it; here it only cannot count.
    }
  }
  return spreadsOfRuns(runs, baseline.scale, `${baseline.profile.id} (${dir})`);
}
