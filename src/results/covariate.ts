/**
 * Adjusting per-process values for a covariate measured in the same process (issue 27): the
 * host-state probe (measure/host-probe.ts). Analysis of covariance on the log scale
 * (Montgomery, *Design and Analysis of Experiments*, 8th ed., section 15.3): each arm's log values
 * are moved along the pooled within-arm slope to the mean log covariate of both arms,
 *   y'_ij = y_ij - b (x_ij - x̄),   b = Σ_i Σ_j (x_ij - x̄_i)(y_ij - ȳ_i) / Σ_i Σ_j (x_ij - x̄_i)².
 * The within-arm slope is unbiased when the arms really differ; the adjusted values then go to
 * the same permutation test as unadjusted ones (a residual permutation, ter Braak 1992).
 */

import { mean } from '../measure/statistics.js';

/** One arm's per-process values and the covariate each process measured, index by index. */
export interface CovariateArm {
  readonly values: readonly number[];
  readonly covariate: readonly number[];
}

/** Adjusted per-process values of both arms, and what adjusted them. */
export interface CovariateAdjustment {
  readonly base: number[];
  readonly head: number[];
  /** b: log-value change per log-unit of the covariate. */
  readonly slope: number;
  /** Share of the within-arm variance of the log values the covariate explains (R²). */
  readonly explained: number;
}

/** Processes per arm below which the slope is not estimated (its own noise would outweigh it). */
export const MIN_COVARIATE_PROCESSES = 4;

/**
 * The adjustment of `base` and `head`, or null when it cannot be made: a length mismatch, a
 * value or covariate <= 0, fewer than MIN_COVARIATE_PROCESSES per arm, or a covariate that does
 * not vary within the arms.
 */
export function adjustForCovariate(base: CovariateArm, head: CovariateArm): CovariateAdjustment | null {
  const arms = [base, head];
  for (const arm of arms) {
    if (arm.values.length !== arm.covariate.length || arm.values.length < MIN_COVARIATE_PROCESSES) return null;
    if (![...arm.values, ...arm.covariate].every((v) => v > 0 && Number.isFinite(v))) return null;
  }
  const logs = arms.map((arm) => ({ y: arm.values.map(Math.log), x: arm.covariate.map(Math.log) }));
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const { x, y } of logs) {
    const [mx, my] = [mean(x), mean(y)];
    for (const [j, xj] of x.entries()) {
      sxy += (xj - mx) * (y[j]! - my);
      sxx += (xj - mx) ** 2;
      syy += (y[j]! - my) ** 2;
    }
  }
  if (!(sxx > 0)) return null;
  const slope = sxy / sxx;
  const centre = mean(logs.flatMap((l) => l.x));
  const adjust = ({ x, y }: { x: number[]; y: number[] }) => y.map((yj, j) => Math.exp(yj - slope * (x[j]! - centre)));
  return { base: adjust(logs[0]!), head: adjust(logs[1]!), slope, explained: syy > 0 ? (sxy * sxy) / (sxx * syy) : 0 };
}

/** Labels, as metrics carry them. */
type Labelled = { readonly labels?: Readonly<Record<string, string>> | undefined };

/** The label by which a ratio names the metric that is its covariate (by id, in the same record). */
export const COVARIATE_LABEL = 'covariate';

/** A covariate metric (labels.role 'covariate'): measured to adjust others' verdicts, never judged itself. */
export function isCovariateMetric(m: Labelled): boolean {
  return m.labels?.role === 'covariate';
}

/** The id of the covariate a metric is adjusted for, if it names one. */
export function covariateIdOf(m: Labelled): string | undefined {
  return m.labels?.[COVARIATE_LABEL];
}
