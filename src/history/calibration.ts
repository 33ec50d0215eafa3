import { z } from 'zod';
import { deriveSeed, seededRng, type Rng } from '../base/random.js';
import { wilson } from '../results/calibration.js';
import { readJsonFile } from '../results/storage.js';
import { eDivisive, type EDivisiveParams } from './edivisive.js';

/**
 * Calibration of the change-point detection (perf:history --calibrate): synthetic histories
 * built from the committed calibration pools (real per-process speedups of this machine, written
 * by perf:calibrate), flat and with a step at a known index, run through the same detection as
 * perf:history; reported as the false-positive rate (flat series with any detection) and the
 * recall (a change point within +-1 of the step's index), with Wilson 95% intervals.
 */

/** The part of <profile>.calibration.json this reads: the per-process speedups of each condition. */
const poolsFileSchema = z.object({ pools: z.record(z.string(), z.array(z.number().positive()).min(2)) });

/** The pools of a calibration file, by condition name (A, A', +20%, +10%). */
export async function readPools(path: string): Promise<Record<string, number[]>> {
  return (await readJsonFile(path, poolsFileSchema, 'calibration pools file (perf:calibrate)', { versioned: false })).pools;
}

/** A way to build one synthetic series: points before the step from `before`, from `after` (divided by `divide`) from the step on. */
export interface Condition {
  readonly name: string;
  readonly before: readonly number[];
  readonly after: readonly number[];
  /** Each value from the step on is divided by this (1.1: the speedup falls by a factor 1.1). */
  readonly divide: number;
  /** Whether the series has a step to find (false: flat, any detection is a false positive). */
  readonly step: boolean;
}

/** How a calibration is run. */
export interface CalibrationPlan {
  readonly length: number;
  /** Series per condition. */
  readonly series: number;
  /** The step's (split's) index is uniform in [edge, length - edge]. */
  readonly edge: number;
  readonly seed: number;
}

/** Defaults: 30 points, step index uniform in [5, 25], 500 series per condition. */
export const DEFAULT_PLAN: CalibrationPlan = { length: 30, series: 500, edge: 5, seed: 20261219 };

/** One drawn series and the index where its second part starts (a step, or for a flat condition the switch between pools). */
export interface SyntheticSeries {
  readonly values: number[];
  readonly splitAt: number;
}

/** Draws one series of `length`: with replacement from `before` up to the split, from `after` / divide from it. */
export function syntheticSeries(condition: Condition, plan: Pick<CalibrationPlan, 'length' | 'edge'>, rng: Rng): SyntheticSeries {
  const splitAt = plan.edge + rng.int(plan.length - 2 * plan.edge + 1);
  const values = Array.from({ length: plan.length }, (_, i) => {
    const from = i >= splitAt ? condition.after : condition.before;
    const v = from[rng.int(from.length)]!;
    return i >= splitAt ? v / condition.divide : v;
  });
  return { values, splitAt };
}

/** A rate with its Wilson 95% interval. */
export interface Rate {
  readonly k: number;
  readonly n: number;
  readonly rate: number;
  readonly ci: readonly [number, number];
}

/** k of n as a Rate. */
export const rateOf = (k: number, n: number): Rate => ({ k, n, rate: n ? k / n : 0, ci: wilson(k, n) });

/** What one condition gave: any detection, and (with a step) a detection within +-1 of it. */
export interface ConditionOutcome {
  readonly name: string;
  readonly step: boolean;
  readonly anyDetection: Rate;
  /** null for flat conditions. */
  readonly recall: Rate | null;
}

/** Runs `plan.series` synthetic series of a condition through eDivisive (on log values); series i uses seeds derived from (seed, i), so results do not depend on order. */
export function calibrateCondition(condition: Condition, params: EDivisiveParams, plan: CalibrationPlan, index: number): ConditionOutcome {
  let any = 0;
  let near = 0;
  for (let i = 0; i < plan.series; i++) {
    const rng = seededRng(deriveSeed(deriveSeed(plan.seed, index), i));
    const s = syntheticSeries(condition, plan, rng);
    const found = eDivisive(s.values.map(Math.log), params, rng);
    if (found.length > 0) any++;
    if (condition.step && found.some((c) => Math.abs(c.index - s.splitAt) <= 1)) near++;
  }
  return { name: condition.name, step: condition.step, anyDetection: rateOf(any, plan.series), recall: condition.step ? rateOf(near, plan.series) : null };
}

/**
 * The conditions from the pools: flat (A), A then A' (real A/A), A with an injected 10% and 20%
 * step, and A then the real +10% / +20% work pools (their step is what the speedup really moved).
 */
export function conditionsFrom(pools: Readonly<Record<string, readonly number[]>>): Condition[] {
  const pool = (name: string) => {
    const p = pools[name];
    if (!p) throw new RangeError(`the calibration pools have no '${name}' condition (found: ${Object.keys(pools).join(', ')})`);
    return p;
  };
  const a = pool('A');
  const out: Condition[] = [
    { name: 'flat: A', before: a, after: a, divide: 1, step: false },
    { name: 'injected 10% step: A, then A / 1.1', before: a, after: a, divide: 1.1, step: true },
    { name: 'injected 20% step: A, then A / 1.2', before: a, after: a, divide: 1.2, step: true },
  ];
  if (pools["A'"]) out.push({ name: "flat, two pools: A, then A'", before: a, after: pool("A'"), divide: 1, step: false });
  if (pools['+10%']) out.push({ name: 'real +10% work: A, then +10% pool', before: a, after: pool('+10%'), divide: 1, step: true });
  if (pools['+20%']) out.push({ name: 'real +20% work: A, then +20% pool', before: a, after: pool('+20%'), divide: 1, step: true });
  return out;
}
