import type { Rng } from '../base/random.js';
import { mean } from '../measure/statistics.js';
import { judgeProcesses, type ProcessVerdictName } from './process-verdict.js';

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

/** `k` distinct items of `pool` not in `taken`, drawn uniformly; marks them taken. */
function draw(pool: readonly number[], k: number, taken: Set<number>, rng: Rng): number[] {
  const free = pool.map((_, i) => i).filter((i) => !taken.has(i));
  if (free.length < k) throw new RangeError(`a pool of ${pool.length} processes cannot give ${k} more`);
  const out: number[] = [];
  for (let j = 0; j < k; j++) {
    const at = j + rng.int(free.length - j);
    [free[j], free[at]] = [free[at]!, free[j]!];
    taken.add(free[j]!);
    out.push(pool[free[j]!]!);
  }
  return out;
}

/**
 * One sequential decision resampled from pools (no process used twice within a decision):
 * 8 + 8, and if inconclusive 8 + 8 more, judged on all; returns the verdict and processes used.
 */
export function resampledDecision(
  basePool: readonly number[],
  headPool: readonly number[],
  plan: DecisionPlan,
  rng: Rng,
): { verdict: ProcessVerdictName; processes: number } {
  const takenBase = new Set<number>();
  const takenHead = basePool === headPool ? takenBase : new Set<number>();
  const base = draw(basePool, plan.perArm, takenBase, rng);
  const head = draw(headPool, plan.perArm, takenHead, rng);
  const options = { tolerance: plan.tolerance, alpha: plan.alpha };
  const fast = { interval: false }; // verdicts only: no interval edges to display
  const first = judgeProcesses({ id: 'calibration', kind: 'ratio', base, head }, options, fast).verdict;
  if (first !== 'inconclusive') return { verdict: first, processes: 2 * plan.perArm };
  base.push(...draw(basePool, plan.perArm, takenBase, rng));
  head.push(...draw(headPool, plan.perArm, takenHead, rng));
  return { verdict: judgeProcesses({ id: 'calibration', kind: 'ratio', base, head }, options, fast).verdict, processes: 4 * plan.perArm };
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
