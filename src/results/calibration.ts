import type { Rng } from '../data/random.js';
import { pairRatios, type PairedSamples } from '../measure/paired.js';
import { bootstrapCI, median } from '../measure/statistics.js';
import type { Metric } from './schema.js';
import { poolRatioMetric } from './metrics.js';
import { judgeMetric } from './verdict.js';

/** How a simulated run is drawn and judged: as `npm run perf` does it. */
export interface CalibrationPlan {
  /** Pairs per run (the quick scale's count). */
  readonly pairs: number;
  readonly tolerance: number;
  /** Simulated runs per condition. */
  readonly trials: number;
  /** Bootstrap resamples per CI (fewer than a real run's 10,000 to keep calibration fast). */
  readonly resamples: number;
}

/** Draws `n` pairs with replacement from a pool of measured pairs: one simulated run. */
function drawRun(pool: PairedSamples, n: number, rng: Rng): PairedSamples {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = rng.int(pool.a.length);
    a.push(pool.a[k]!);
    b.push(pool.b[k]!);
  }
  return { a, b };
}

/** The ratio metric a run of these pairs would record. */
export function ratioMetric(run: PairedSamples, rng: Rng, resamples: number): Metric {
  const ci = bootstrapCI(pairRatios(run), median, { rng, resamples });
  return { id: 'calibration.ratio', scenario: 'calibration', kind: 'ratio', value: ci.estimate, unit: 'x', ci: [ci.lo, ci.hi], n: run.a.length, samples: { a: [...run.a], b: [...run.b] } };
}

/** Rates of verdicts over simulated runs of one condition. */
export interface ConditionOutcome {
  readonly trials: number;
  /** Fraction judged regressed after the one re-measurement (pooled pairs). */
  readonly regressed: number;
  /** Fraction flagged on the first measurement, before re-measuring. */
  readonly flaggedFirst: number;
  readonly improved: number;
  /** Median of (CI high - CI low) / estimate over the runs. */
  readonly medianRelativeCIWidth: number;
}

/**
 * Simulates `trials` compare-with-baseline cycles: a baseline run drawn from `baselinePool`, a
 * new run drawn from `runPool`, judged as a ratio with the plan's tolerance; a regression is
 * re-measured once with a fresh draw and judged on the pooled pairs, as `npm run perf` does.
 */
export function simulateCondition(baselinePool: PairedSamples, runPool: PairedSamples, plan: CalibrationPlan, rng: Rng): ConditionOutcome {
  let regressed = 0;
  let flagged = 0;
  let improved = 0;
  const widths: number[] = [];
  const judge = (b: Metric, c: Metric) => judgeMetric(b, c, { tolerance: plan.tolerance, gateTiming: true }).verdict;
  for (let t = 0; t < plan.trials; t++) {
    const baseline = ratioMetric(drawRun(baselinePool, plan.pairs, rng), rng, plan.resamples);
    const first = drawRun(runPool, plan.pairs, rng);
    const current = ratioMetric(first, rng, plan.resamples);
    widths.push((current.ci![1] - current.ci![0]) / current.value);
    let verdict = judge(baseline, current);
    if (verdict === 'regressed') {
      flagged++;
      const second = drawRun(runPool, plan.pairs, rng);
      verdict = judge(baseline, ratioMetric({ a: [...first.a, ...second.a], b: [...first.b, ...second.b] }, rng, plan.resamples));
    }
    if (verdict === 'regressed') regressed++;
    if (verdict === 'improved') improved++;
  }
  return {
    trials: plan.trials,
    regressed: regressed / plan.trials,
    flaggedFirst: flagged / plan.trials,
    improved: improved / plan.trials,
    medianRelativeCIWidth: median(widths),
  };
}

/** Verdicts of runs made in separate processes, each judged against each other as baseline. */
export interface CrossRunOutcome {
  readonly runs: number;
  readonly comparisons: number;
  /** Fraction flagged on the first measurement. */
  readonly flaggedFirst: number;
  /** Fraction still regressed after pooling with one more run (the re-measurement). */
  readonly regressed: number;
  readonly improved: number;
  /** Smallest and largest estimate over the runs. */
  readonly range: readonly [number, number];
}

/**
 * A/A across processes: every run is judged against every other run as its baseline; a flagged
 * run is re-measured by pooling it with a third run, as `npm run perf` would. Nothing changed
 * between the runs, so every regression is a false alarm, including the process-to-process
 * variation that resampling within one run cannot see.
 */
export function crossRunFalseAlarms(runs: readonly Metric[], tolerance: number): CrossRunOutcome {
  if (runs.length < 3) throw new RangeError(`cross-run calibration needs at least 3 runs, got ${runs.length}`);
  const judge = (b: Metric, c: Metric) => judgeMetric(b, c, { tolerance, gateTiming: true }).verdict;
  let comparisons = 0;
  let flagged = 0;
  let regressed = 0;
  let improved = 0;
  runs.forEach((baseline, i) =>
    runs.forEach((current, j) => {
      if (i === j) return;
      comparisons++;
      let verdict = judge(baseline, current);
      if (verdict === 'regressed') {
        flagged++;
        const k = [...runs.keys()].find((x) => x !== i && x !== j && x > j) ?? [...runs.keys()].find((x) => x !== i && x !== j)!;
        verdict = judge(baseline, poolRatioMetric(current, runs[k]!));
      }
      if (verdict === 'regressed') regressed++;
      if (verdict === 'improved') improved++;
    }),
  );
  const values = runs.map((r) => r.value);
  return {
    runs: runs.length,
    comparisons,
    flaggedFirst: flagged / comparisons,
    regressed: regressed / comparisons,
    improved: improved / comparisons,
    range: [Math.min(...values), Math.max(...values)],
  };
}

/**
 * Smallest ratio tolerance (to 1%, up to 100%) at which no cross-process A/A comparison ends
 * regressed; a binary search, since a wider band never turns a pass into a regression.
 */
export function toleranceWithoutFalseAlarms(runs: readonly Metric[]): number {
  let lo = 0; // percent known to raise a false alarm (0: assumed)
  let hi = 100; // percent taken as safe
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (crossRunFalseAlarms(runs, mid / 100).regressed === 0) hi = mid;
    else lo = mid;
  }
  return hi / 100;
}
