import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { sameDeviceOtherHost } from '../backend/fingerprint.js';
import { geometricMean } from '../measure/statistics.js';
import { readBaseline } from './baseline.js';
import { readCalibratedSpread, readCalibrationPools, UNCHANGED_POOLS } from './calibration.js';
import { readRecordedSpreads } from './recorded-spread.js';
import { isCovariateMetric } from './covariate.js';
import type { KnownSpread } from './process-verdict.js';
import { deviceCalibrationFiles, otherHostIds, profileFilePath } from './profile-files.js';
import type { Metric, RunRecord } from './schema.js';
import { perProcessValues } from './verdict.js';

/**
 * The hardware allowance a ratio gets when it is judged against a baseline of the same device
 * recorded on a host of another CPU model (backend/fingerprint.ts sameDeviceOtherHost). Each
 * figure is a fall, 1 - lower / higher of two geometric means (hostShift), since a ratio's
 * tolerance is the fall it may take before it regresses (process-verdict.ts).
 *
 * Measured, not guessed, from two sources:
 * - the committed calibration pools of that device (`baselines/*.calibration.json`,
 *   perf:calibrate): 32-60 processes of unchanged code each (conditions A and A'), pools of
 *   different sessions on different days, runner instances and load. The largest shift between
 *   any two is how far the speedup moved with only the machine's state changed (here 7.5%, the
 *   pools of 2026-12-03 against those of 2026-12-04; within one session 1.2%). One CPU model.
 * - baselines of the device accepted at ONE commit on hosts of two CPU models (the issue's "runs
 *   of one commit on two CPUs", allowanceOfHosts): each ratio's own shift between them, which the
 *   pools cannot measure. On lavapipe, where the CPU runs the device, they differ by ratio from
 *   under 1% to nearly a halving (docs/baselines.md has the table).
 * A ratio's allowance is the larger of the pools' shift and its own shift between CPUs; a ratio
 * with none of its own gets the largest measured. A third CPU model may move further than the two
 * measured did: the gate that holds on any runner is the same-job A/B (`gtp ab`: base and head on
 * one runner), not this; docs/baselines.md and docs/ci.md say so.
 */
export interface HostAllowance {
  /** Relative allowance added to a ratio's tolerance, for a ratio not in `byMetric` (0.075: ±7.5%). */
  readonly allowance: number;
  /** Each ratio's own allowance, where one was measured between CPUs (allowanceOfHosts). */
  readonly byMetric?: Readonly<Record<string, number>>;
  /** Where it was measured, in words (pools, sessions, files; the commit and CPUs). */
  readonly source: string;
}

/** The allowance of ratio `id`: its own, else the device's; 0 where none was measured (then ratios do not gate across CPUs). */
export function allowanceOf(a: { readonly allowance: number | null; readonly byMetric?: Readonly<Record<string, number>> }, id: string): number {
  return a.byMetric?.[id] ?? a.allowance ?? 0;
}

/** How far apart two positive values are, as the fall from the higher to the lower: 1 - min / max. */
export function hostShift(x: number, y: number): number {
  return 1 - Math.min(x, y) / Math.max(x, y);
}

/** One calibration file's pools, by condition. */
export interface CalibrationSession {
  readonly path: string;
  readonly pools: Readonly<Record<string, readonly number[]>>;
}

/**
 * The largest relative shift between the geometric means of any two unchanged pools (A, A') of
 * the sessions, or null with fewer than two such pools (nothing measured the shift).
 */
export function allowanceOfSessions(sessions: readonly CalibrationSession[]): HostAllowance | null {
  const pools = sessions.flatMap((s) =>
    UNCHANGED_POOLS.flatMap((name) => (s.pools[name] && s.pools[name].length >= 2 ? [{ path: s.path, name, gm: geometricMean(s.pools[name]) }] : [])),
  );
  if (pools.length < 2) return null;
  const means = pools.map((p) => p.gm);
  const allowance = hostShift(Math.max(...means), Math.min(...means));
  const files = [...new Set(pools.map((p) => p.path))];
  const processes = sessions.reduce((t, s) => t + UNCHANGED_POOLS.reduce((u, name) => u + (s.pools[name]?.length ?? 0), 0), 0);
  return {
    allowance,
    source: `the largest shift between ${pools.length} unchanged calibration pools (${processes} processes) of ${files.length} session${files.length === 1 ? '' : 's'} of this device (${files.join(', ')}), measured on the baseline's CPU only`,
  };
}

/** A baseline of the device as allowanceOfHosts needs it: where, whose CPU, which commit, its ratios. */
export interface HostBaseline {
  readonly path: string;
  readonly cpu: string;
  /** The commit it was accepted from; null when unknown (then it pairs with nothing). */
  readonly commit: string | null;
  /** Whether its tree had changes beside the commit (then it pairs with nothing: the code is not the commit's). */
  readonly dirty: boolean | null;
  readonly metrics: readonly Metric[];
}

/**
 * Each ratio's shift (hostShift of its geometric means over per-process values, at least 2 on
 * each side) between two baselines of one clean commit (`git.dirty` false) recorded on different
 * CPU models, the largest where several pairs hold it, and the largest of all as the allowance of ratios not measured; the host-state probe is
 * left out (it describes the machine). Null when no commit has baselines from two CPU models, or
 * they share no ratio.
 */
export function allowanceOfHosts(baselines: readonly HostBaseline[]): HostAllowance | null {
  const byMetric: Record<string, number> = {};
  const pairs: string[] = [];
  for (const [i, a] of baselines.entries()) {
    for (const b of baselines.slice(i + 1)) {
      if (a.commit === null || a.commit !== b.commit || a.cpu === b.cpu || a.dirty !== false || b.dirty !== false) continue;
      const theirs = new Map(b.metrics.map((m) => [m.id, m]));
      let shared = 0;
      for (const m of a.metrics) {
        const other = theirs.get(m.id);
        if (m.kind !== 'ratio' || other?.kind !== 'ratio' || isCovariateMetric(m)) continue;
        const [x, y] = [perProcessValues(m), perProcessValues(other)];
        // One process's value carries its own process's spread: a shift needs several on each side.
        if (x.length < 2 || y.length < 2 || ![...x, ...y].every((v) => v > 0)) continue;
        shared++;
        byMetric[m.id] = Math.max(byMetric[m.id] ?? 0, hostShift(geometricMean(x), geometricMean(y)));
      }
      if (shared > 0) pairs.push(`commit ${a.commit.slice(0, 12)} on ${a.cpu} (${a.path}) and ${b.cpu} (${b.path})`);
    }
  }
  const ids = Object.keys(byMetric);
  if (ids.length === 0) return null;
  const worst = ids.reduce((w, id) => (byMetric[id]! > byMetric[w]! ? id : w));
  return {
    allowance: byMetric[worst]!,
    byMetric,
    source: `baselines of one commit on two CPUs (${pairs.join('; ')}): each of ${ids.length} ratio(s) its own shift, from ${pct1(Math.min(...Object.values(byMetric)))} to ${pct1(byMetric[worst]!)} (${worst})`,
  };
}

const pct1 = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * Both measurements as one: each ratio's allowance the larger of its own and the pools', the
 * device's the larger of the two; the source naming both where both were measured.
 */
function combine(pools: HostAllowance | null, hosts: HostAllowance | null): HostAllowance | null {
  if (!pools || !hosts) return pools ?? hosts;
  const byMetric = Object.fromEntries(Object.entries(hosts.byMetric ?? {}).map(([id, a]) => [id, Math.max(a, pools.allowance)]));
  return {
    allowance: Math.max(pools.allowance, hosts.allowance),
    byMetric,
    source: `${hosts.source}; at least ±${pct1(pools.allowance)}, from ${pools.source}`,
  };
}

/** The baselines of `profileId`'s device in `dir` (its own and other hosts'), at the scale of `kind`. */
async function deviceBaselines(dir: string, profileId: string, kind: 'baseline' | 'full-baseline'): Promise<HostBaseline[]> {
  const out: HostBaseline[] = [];
  for (const id of [profileId, ...otherHostIds(dir, profileId, kind)]) {
    const path = profileFilePath(dir, id, kind);
    // The profile asked about may have no file of its own (a legacy-named one, or none): nothing to pair.
    if (!existsSync(path)) continue;
    const baseline = await readBaseline(path);
    out.push({ path, cpu: baseline.profile.cpu.model, commit: baseline.git.commit, dirty: baseline.git.dirty, metrics: baseline.metrics });
  }
  return out;
}

/**
 * Measures the allowance for a baseline of `profileId`'s device in `dir`: from the device's
 * calibration files (deviceCalibrationFiles) and from its baselines of one commit on two CPUs
 * (allowanceOfHosts); the larger, or null when neither measured one.
 */
export async function readHostAllowance(dir: string, profileId: string, kind: 'baseline' | 'full-baseline' = 'baseline'): Promise<HostAllowance | null> {
  return combine(await readPoolAllowance(dir, profileId), allowanceOfHosts(await deviceBaselines(dir, profileId, kind)));
}

/** Reads the calibration files of `profileId`'s device in `dir` (deviceCalibrationFiles) and measures the allowance from them. */
async function readPoolAllowance(dir: string, profileId: string): Promise<HostAllowance | null> {
  const sessions: CalibrationSession[] = [];
  for (const path of deviceCalibrationFiles(dir, profileId)) {
    const pools = await readCalibrationPools(path);
    if (pools) sessions.push({ path, pools });
  }
  return allowanceOfSessions(sessions);
}

/**
 * What judging `run` against `baseline` (read from `baselinePath`) needs beside the two records:
 * the baseline profile's calibrated spread, each ratio's spread pooled over the profile's recorded
 * runs (recorded-spread.ts), and, when the baseline is the same device on another CPU, the host
 * allowance (null when nothing measured one; undefined when not needed).
 */
export async function judgingContext(
  run: Pick<RunRecord, 'profile' | 'scale'>,
  baselinePath: string,
  baseline: Pick<RunRecord, 'profile' | 'metrics' | 'scale'>,
): Promise<{ spread: KnownSpread | null; metricSpreads: ReadonlyMap<string, KnownSpread>; hostAllowance?: HostAllowance | null }> {
  const baselineProfile = baseline.profile.id;
  const spread = await readCalibratedSpread(baselinePath, baselineProfile);
  const metricSpreads = await readRecordedSpreads(baselinePath, baseline);
  if (!sameDeviceOtherHost(run.profile.id, baselineProfile)) return { spread, metricSpreads };
  return {
    spread,
    metricSpreads,
    hostAllowance: await readHostAllowance(dirname(baselinePath), baselineProfile, run.scale === 'full' ? 'full-baseline' : 'baseline'),
  };
}
