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
   * worse: the deciding metric is worse than at the good end; same: not worse; unknown: inconclusive
   * after the last look (or a process failed); skip: the commit's harness did not start (its cause in `errors`), passed over as `git bisect skip`.
   */
  readonly outcome: 'worse' | 'same' | 'unknown' | 'skip';
  /**
   * The verdicts of the metrics that decide it, in the order they are asked: those followed (the
   * metrics worse at the bad end, or --metric); at the bad end without --metric, every judged one.
   */
  readonly verdicts: readonly ProcessVerdict[];
  /** The followed metric whose verdict decided it (absent: none decided, or the bad end without --metric). */
  readonly decidedBy?: string;
  /** Every other judged metric: shown for information, never deciding the probe. */
  readonly information: readonly ProcessVerdict[];
  /** Looks taken (each K more processes per arm): another while no deciding verdict is conclusive, at most three. */
  readonly looks: number;
  readonly processes: readonly [number, number];
  readonly errors: readonly string[];
  /** Why it is unknown, when no process failed (inconclusive after its looks; the followed metrics not recorded). */
  readonly reason?: string;
}

/** The outcome of a bisect. */
export interface BisectResult {
  readonly good: string;
  readonly bad: string;
  /** First-parent commits after the good end, oldest first; the bad end last. */
  readonly commits: number;
  /**
   * The metrics that decide each probe after the bad end, in the order they are asked: --metric,
   * or those that regressed at the bad end (ratios first, then the clearest change); empty when
   * the bad end was not worse.
   */
  readonly follows: readonly string[];
  readonly probes: readonly BisectProbe[];
  /** The first commit whose metric is worse; null: not found (see `reason`). */
  readonly culprit: BisectProbe | null;
  readonly reason: string | null;
  readonly minutes: number;
}
