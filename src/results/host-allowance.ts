import { NotRegularFileError, readRegularFile } from '../base/regular-file.js';
import { dirname } from 'node:path';
import { sameDeviceOtherHost } from '../backend/fingerprint.js';
import { mean } from '../measure/statistics.js';
import { calibrationFileSchema, readCalibratedSpread, UNCHANGED_POOLS } from './calibration.js';
import type { KnownSpread } from './process-verdict.js';
import { deviceCalibrationFiles } from './profile-files.js';
import type { RunRecord } from './schema.js';
import { parseJsonText, RecordFileError } from './storage.js';

/**
 * The hardware allowance a ratio gets when it is judged against a baseline of the same device
 * recorded on a host of another CPU model (backend/fingerprint.ts sameDeviceOtherHost).
 *
 * Where it comes from (measured, not guessed): the committed calibration pools of that device
 * (`baselines/*.calibration.json`, perf:calibrate). Each pool holds 32-60 processes of unchanged
 * code (conditions A and A'); pools of different sessions ran on different days, on different
 * instances of the CI's runner, under different load. The allowance is the largest shift between
 * the geometric means of any two such pools: how far the speedup moved with nothing but the
 * machine's state and instance changed (in this repository, 8.1%: the pools of 2026-12-03 against
 * those of 2026-12-04; within one session 1.2%). Those sessions also differ by commit (the
 * host-state probe came between them), so the figure is on the generous side for same-CPU hosts.
 *
 * What it does NOT cover: another CPU microarchitecture. Every committed pool was measured on an
 * AMD EPYC (2 cores); no run of one commit on two CPU models is committed, and this machine has one
 * kind of CPU, so a speedup that moves more than this between, say, an EPYC and a Xeon is not
 * measured. The gate that holds on any runner is the same-job A/B (`gtp ab`: base and head on one
 * runner), not this; docs/baselines.md and docs/ci.md say so.
 */
export interface HostAllowance {
  /** Relative allowance added to each ratio's tolerance (0.081: ±8.1%). */
  readonly allowance: number;
  /** Where it was measured, in words (pools, sessions, files). */
  readonly source: string;
}

/** One calibration file's pools, by condition. */
export interface CalibrationSession {
  readonly path: string;
  readonly pools: Readonly<Record<string, readonly number[]>>;
}

const geomean = (xs: readonly number[]) => Math.exp(mean(xs.map(Math.log)));

/**
 * The largest relative shift between the geometric means of any two unchanged pools (A, A') of
 * the sessions, or null with fewer than two such pools (nothing measured the shift).
 */
export function allowanceOfSessions(sessions: readonly CalibrationSession[]): HostAllowance | null {
  const pools = sessions.flatMap((s) =>
    UNCHANGED_POOLS.flatMap((name) => (s.pools[name] && s.pools[name].length >= 2 ? [{ path: s.path, name, gm: geomean(s.pools[name]) }] : [])),
  );
  if (pools.length < 2) return null;
  const means = pools.map((p) => p.gm);
  const allowance = Math.max(...means) / Math.min(...means) - 1;
  const files = [...new Set(pools.map((p) => p.path))];
  const processes = sessions.reduce((t, s) => t + UNCHANGED_POOLS.reduce((u, name) => u + (s.pools[name]?.length ?? 0), 0), 0);
  return {
    allowance,
    source: `the largest shift between ${pools.length} unchanged calibration pools (${processes} processes) of ${files.length} session${files.length === 1 ? '' : 's'} of this device (${files.join(', ')}), measured on the baseline's CPU only`,
  };
}

/** Reads the calibration files of `profileId`'s device in `dir` (deviceCalibrationFiles) and measures the allowance from them. */
export async function readHostAllowance(dir: string, profileId: string): Promise<HostAllowance | null> {
  const sessions: CalibrationSession[] = [];
  for (const path of deviceCalibrationFiles(dir, profileId)) {
    // Only a regular file is opened: a FIFO in the baselines folder would block the read.
    const text = await readRegularFile(path).then(
      (bytes) => bytes.toString('utf8'),
      (error: unknown) => {
        if (error instanceof NotRegularFileError)
          throw new RecordFileError(`${path}: ${error.reason}, so not read; it must be a calibration file (perf:calibrate)`);
        throw error;
      },
    );
    sessions.push({ path, pools: parseJsonText(path, text, calibrationFileSchema, 'calibration file (perf:calibrate)', { versioned: false }).pools });
  }
  return allowanceOfSessions(sessions);
}

/**
 * What judging `run` against the baseline at `baselinePath` needs beside the two records: the
 * baseline profile's calibrated spread, and, when the baseline is the same device on another
 * CPU, the host allowance (null when nothing measured one; undefined when not needed).
 */
export async function judgingContext(
  run: Pick<RunRecord, 'profile'>,
  baselinePath: string,
  baselineProfile: string,
): Promise<{ spread: KnownSpread | null; hostAllowance?: HostAllowance | null }> {
  const spread = await readCalibratedSpread(baselinePath, baselineProfile);
  if (!sameDeviceOtherHost(run.profile.id, baselineProfile)) return { spread };
  return { spread, hostAllowance: await readHostAllowance(dirname(baselinePath), baselineProfile) };
}
