import { NotRegularFileError, readRegularFile } from '../base/regular-file.js';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Rng } from '../base/random.js';
import { mean } from '../measure/statistics.js';
import { judgeOneProcess, judgeProcesses, type KnownSpread, oneProcessAlpha, type ProcessVerdictName } from './process-verdict.js';
import { lookupProfileFile, profileFilePath } from './profile-files.js';
import { parseJsonText, RecordFileError } from './storage.js';

/**
 * Calibration of the cross-process verdicts (npm run perf:calibrate): pools of real per-process
 * speedups for each condition (A/A, +10% and +20% real work in the head), resampled into many
 * sequential 8 + 8 (+ 8 + 8) decisions judged exactly as perf:ab and CI judge them.
 */

/** How a sequential decision is made. */
export interface DecisionPlan {
  /** Processes per arm and look. */
  readonly perArm: number;
  readonly tolerance: number;
  readonly alpha: number;
}

/** How often each verdict came out, with Wilson 95% intervals, over `decisions`. */
export interface DecisionOutcome {
  readonly decisions: number;
  readonly rates: Readonly<Record<ProcessVerdictName, { readonly rate: number; readonly ci: readonly [number, number] }>>;
  /** Mean processes per decision, both arms (a second look doubles it). */
  readonly meanProcesses: number;
}

/** Wilson score interval of a binomial proportion (Wilson 1927), 95%. */
export function wilson(successes: number, n: number, z = 1.959964): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** `k` distinct indexes of a pool of `size` not in `taken`, drawn uniformly; marks them taken. */
function drawIndexes(size: number, k: number, taken: Set<number>, rng: Rng): number[] {
  const free = Array.from({ length: size }, (_, i) => i).filter((i) => !taken.has(i));
  if (free.length < k) throw new RangeError(`a pool of ${size} processes cannot give ${k} more`);
  const out: number[] = [];
  for (let j = 0; j < k; j++) {
    const at = j + rng.int(free.length - j);
    [free[j], free[at]] = [free[at]!, free[j]!];
    taken.add(free[j]!);
    out.push(free[j]!);
  }
  return out;
}

/** `k` distinct items of `pool` not in `taken`, drawn uniformly; marks them taken. */
function draw(pool: readonly number[], k: number, taken: Set<number>, rng: Rng): number[] {
  return drawIndexes(pool.length, k, taken, rng).map((i) => pool[i]!);
}

/** A pool of per-process values, with the host-state probe each process measured (index by index) when judged adjusted for it. */
export interface CovariatePool {
  readonly values: readonly number[];
  readonly probes: readonly number[];
}

const isValues = (p: readonly number[] | CovariatePool): p is readonly number[] => Array.isArray(p);

/**
 * One sequential decision resampled from pools (no process used twice within a decision):
 * 8 + 8, and if inconclusive 8 + 8 more, judged on all; returns the verdict and processes used.
 * Pools with probes are judged adjusted for them (results/covariate.ts), as perf:ab judges.
 */
export function resampledDecision(
  basePool: readonly number[] | CovariatePool,
  headPool: readonly number[] | CovariatePool,
  plan: DecisionPlan,
  rng: Rng,
): { verdict: ProcessVerdictName; processes: number } {
  const asPool = (p: readonly number[] | CovariatePool): CovariatePool | { values: readonly number[]; probes: null } =>
    isValues(p) ? { values: p, probes: null } : p;
  const [bp, hp] = [asPool(basePool), asPool(headPool)];
  const takenBase = new Set<number>();
  const takenHead = bp.values === hp.values ? takenBase : new Set<number>();
  const at: [number[], number[]] = [[], []];
  const options = { tolerance: plan.tolerance, alpha: plan.alpha };
  const fast = { interval: false }; // verdicts only: no interval edges to display
  const judge = () => {
    const pick = (pool: typeof bp, idx: number[], of: 'values' | 'probes') => idx.map((i) => pool[of]![i]!);
    const covariate = bp.probes && hp.probes ? { covariate: { base: pick(bp, at[0], 'probes'), head: pick(hp, at[1], 'probes') } } : {};
    return judgeProcesses({ id: 'calibration', kind: 'ratio', base: pick(bp, at[0], 'values'), head: pick(hp, at[1], 'values'), ...covariate }, options, fast)
      .verdict;
  };
  const look = () => {
    at[0].push(...drawIndexes(bp.values.length, plan.perArm, takenBase, rng));
    at[1].push(...drawIndexes(hp.values.length, plan.perArm, takenHead, rng));
  };
  look();
  const first = judge();
  if (first !== 'inconclusive') return { verdict: first, processes: 2 * plan.perArm };
  look();
  return { verdict: judge(), processes: 4 * plan.perArm };
}

/** Tallies verdicts of decisions into rates with intervals. */
export function tally(outcomes: ReadonlyArray<{ verdict: ProcessVerdictName; processes: number }>): DecisionOutcome {
  const n = outcomes.length;
  const rate = (name: ProcessVerdictName) => {
    const k = outcomes.filter((o) => o.verdict === name).length;
    return { rate: n ? k / n : 0, ci: wilson(k, n) };
  };
  return {
    decisions: n,
    rates: { regressed: rate('regressed'), improved: rate('improved'), pass: rate('pass'), inconclusive: rate('inconclusive') },
    meanProcesses: n ? mean(outcomes.map((o) => o.processes)) : 0,
  };
}

/** Between-process standard deviation of log values: how much a process's estimate moves. */
export function betweenProcessSd(values: readonly number[]): number {
  const logs = values.map(Math.log);
  const m = mean(logs);
  return Math.sqrt(logs.reduce((s, x) => s + (x - m) ** 2, 0) / (logs.length - 1));
}

/** The calibration's conditions whose processes ran unchanged code (perf:calibrate's A and A'). */
export const UNCHANGED_POOLS = ['A', "A'"] as const;

/**
 * The pooled within-group SD of log values: each group about its own mean (a shift between groups
 * does not count), sqrt(sum of squares / (N - groups)) with N - groups degrees of freedom (the
 * one-way ANOVA's within-group mean square). Groups with fewer than 2 values add nothing; null when none has 2.
 */
export function pooledSpread(groups: ReadonlyArray<readonly number[]>, source: (processes: number) => string): KnownSpread | null {
  const logs = groups.filter((g) => g.length >= 2).map((g) => g.map(Math.log));
  if (logs.length === 0) return null;
  const squares = logs.reduce((t, g) => t + g.reduce((u, x) => u + (x - mean(g)) ** 2, 0), 0);
  const df = logs.reduce((t, g) => t + g.length, 0) - logs.length;
  return { sd: Math.sqrt(squares / df), df, source: source(df + logs.length) };
}

/** The between-process spread of unchanged processes: the pooled SD over the unchanged pools (pooledSpread). */
export function spreadOfPools(pools: Readonly<Record<string, readonly number[]>>, source: string): KnownSpread | null {
  const unchanged = UNCHANGED_POOLS.flatMap((name) => (pools[name] ? [pools[name]] : []));
  return pooledSpread(unchanged, (n) => `${source} (${n} unchanged processes)`);
}

/** Where the profile's calibration file beside a baseline is written: `<dir>/<profile>.calibration.json` (perf:calibrate's pools). */
export function calibrationPathFor(baselinePath: string, profileId: string): string {
  return profileFilePath(dirname(baselinePath), profileId, 'calibration');
}

/** What a calibration file holds that its readers use: the per-process speedups of each condition. */
const calibrationFileSchema = z.object({ pools: z.record(z.string(), z.array(z.number().positive())) });

/**
 * The calibrated between-process spread of the profile whose baseline is at `baselinePath`, or
 * null when it has no calibration file (a file that exists but is not a calibration is an error).
 * Its own file beside the baseline, else the legacy-named one when the legacy baseline beside it
 * was made on this CPU (profile-files.ts).
 */
export async function readCalibratedSpread(baselinePath: string, profileId: string): Promise<KnownSpread | null> {
  const found = lookupProfileFile(dirname(baselinePath), profileId, 'calibration');
  if (found.found === 'none' || found.found === 'other-machine') return null;
  const pools = await readCalibrationPools(found.path);
  return pools === null ? null : spreadOfPools(pools, found.path);
}

/**
 * The pools of the calibration file at `path` (perf:calibrate), or null when there is none. Only
 * a regular file is opened (a FIFO in the baselines folder would block the read); one that is
 * not a calibration file is a RecordFileError naming it.
 */
export async function readCalibrationPools(path: string): Promise<z.infer<typeof calibrationFileSchema>['pools'] | null> {
  let text: string;
  try {
    text = (await readRegularFile(path)).toString('utf8');
  } catch (error) {
    if (error instanceof NotRegularFileError)
      throw new RecordFileError(`${path}: ${error.reason}, so not read; it must be a calibration file (perf:calibrate)`);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseJsonText(path, text, calibrationFileSchema, 'calibration file (perf:calibrate)', { versioned: false }).pools;
}

/** A resampled check of the one-process rule: how many runs, each judging `metrics` metrics at once. */
export interface OneProcessPlan {
  /** The gated metrics of one run: the Bonferroni family (`oneProcessAlpha`). */
  readonly metrics: number;
  /** Per-process values on each side: 8 and 1 (a K-process baseline, one new process), 1 and 1 (with `spread`), 1 and 8. */
  readonly baseProcesses: number;
  readonly headProcesses: number;
  readonly tolerance: number;
  readonly runs: number;
  /** Each head value is divided by this (1: as measured; 2: a ratio halved). */
  readonly divide: number;
  /** The calibrated spread, for one process on each side. */
  readonly spread: KnownSpread | null;
}

/** Runs with any metric regressed (the family-wise rate), and metrics regressed among all judged. */
export interface OneProcessOutcome {
  readonly runs: number;
  readonly runsWithAlarm: number;
  readonly metricsJudged: number;
  readonly metricsRegressed: number;
}

/**
 * Resamples `plan.runs` runs of `plan.metrics` metrics each from real per-process values: each
 * metric's base and head values drawn without replacement (within the metric) from the pools,
 * every metric of a run drawn independently (Bonferroni's worst case: correlated metrics alarm
 * together, which only lowers the chance of any alarm), and judged by `judgeOneProcess` at the
 * level of a family of `plan.metrics`.
 */
export function resampleOneProcess(basePool: readonly number[], headPool: readonly number[], plan: OneProcessPlan, rng: Rng): OneProcessOutcome {
  const options = { tolerance: plan.tolerance, alpha: oneProcessAlpha(plan.metrics) };
  let runsWithAlarm = 0;
  let metricsRegressed = 0;
  for (let run = 0; run < plan.runs; run++) {
    let alarm = false;
    for (let k = 0; k < plan.metrics; k++) {
      const takenBase = new Set<number>();
      const takenHead = basePool === headPool ? takenBase : new Set<number>();
      const base = draw(basePool, plan.baseProcesses, takenBase, rng);
      const head = draw(headPool, plan.headProcesses, takenHead, rng).map((x) => x / plan.divide);
      if (judgeOneProcess({ id: 'calibration', kind: 'ratio', base, head }, options, plan.spread).verdict === 'regressed') {
        metricsRegressed++;
        alarm = true;
      }
    }
    if (alarm) runsWithAlarm++;
  }
  return { runs: plan.runs, runsWithAlarm, metricsJudged: plan.runs * plan.metrics, metricsRegressed };
}
