/**
 * What perf:ab and perf:bisect report (runner/ab.ts, runner/bisect.ts compute it; report/ab.ts
 * renders it): plain data, here below both.
 */
import type { ProcessVerdict } from './process-verdict.js';

/** The outcome of an A/B: per-metric verdicts on per-process values, and what was run. */
export interface AbResult {
  readonly base: string;
  readonly head: string;
  readonly scenarios: readonly string[];
  readonly processes: readonly [number, number];
  readonly verdicts: readonly ProcessVerdict[];
  readonly errors: readonly string[];
  /** What to know beside the verdicts (different harness versions in the arms, metrics only one arm recorded); absent: none. */
  readonly notes?: readonly string[];
  /** The hardware profile the head arm's processes recorded (absent: none recorded one); the exports name it. */
  readonly profile?: string;
  readonly minutes: number;
  readonly exitCode: number;
}

/** One probe: a commit A/B'd against the good end, and what that said. */
export interface BisectProbe {
  readonly commit: string;
  readonly subject: string;
  /**
   * worse: the metric is worse than at the good end; same: not worse; unknown: inconclusive after
   * the second look; skip: the commit's harness did not start (its cause in `errors`), passed over as `git bisect skip`.
   */
  readonly outcome: 'worse' | 'same' | 'unknown' | 'skip';
  /** The verdicts that decided it (the metric's, or every judged metric's). */
  readonly verdicts: readonly ProcessVerdict[];
  readonly processes: readonly [number, number];
  readonly errors: readonly string[];
}

/** The outcome of a bisect. */
export interface BisectResult {
  readonly good: string;
  readonly bad: string;
  /** First-parent commits after the good end, oldest first; the bad end last. */
  readonly commits: number;
  readonly probes: readonly BisectProbe[];
  /** The first commit whose metric is worse; null: not found (see `reason`). */
  readonly culprit: BisectProbe | null;
  readonly reason: string | null;
  readonly minutes: number;
}
