import type { BisectProbe, BisectResult } from '../results/ab-result.js';
import { DEFAULT_PROCESS_ALPHA, judgeProcesses, type ProcessSamples, type ProcessVerdict } from '../results/process-verdict.js';
import { readToleranceOverrides } from '../results/baseline.js';
import { directionOf } from '../results/direction.js';
import { join } from 'node:path';
import { AB_TOLERANCE, type AbOptions, type Arm, armErrors, git, measureArms, openArm, openWorkspace, perProcessValues, removeWorktree } from './ab.js';
import { commandName } from '../base/commands.js';
import { passReach } from './calibrate.js';
import { HarnessStartError } from './harness-start.js';
import { RunInputError } from './perf.js';

/** The prefix of bisect's progress lines, as the command is called here (`perf:bisect`, `gtp bisect`). */
const LOG = `[${commandName('bisect')}]`;

/** The range of a bisect: its two ends resolved to commits, and the first-parent commits after the good end (oldest first, the bad end last). */
export interface BisectRange {
  readonly good: string;
  readonly bad: string;
  readonly commits: readonly string[];
}

/** What `npm run perf:bisect` is asked to do. */
export interface BisectOptions extends Omit<AbOptions, 'base' | 'head'> {
  /** The two ends as the user named them (for messages). */
  readonly good: string;
  readonly bad: string;
  readonly range: BisectRange;
  /** The metric to follow; null: those that regressed at the bad end. */
  readonly metric: string | null;
}

/**
 * The range between `good` and `bad` (refs as the user named them), resolved in this repository;
 * a ref that is not a commit, or a range with no first-parent commit after the good end, is the
 * user's to fix (RunInputError, exit 2) before anything is checked out.
 */
export async function bisectRange(good: string, bad: string): Promise<BisectRange> {
  const verify = async (ref: string, flag: string) => {
    try {
      return await git(['rev-parse', '--verify', `${ref}^{commit}`]);
    } catch {
      throw new RunInputError(`${flag} ${ref}: not a commit, branch or tag of this repository`);
    }
  };
  const range = { good: await verify(good, '--good'), bad: await verify(bad, '--bad') };
  const commits = (await git(['rev-list', '--first-parent', '--reverse', `${range.good}..${range.bad}`])).split('\n').filter(Boolean);
  if (commits.length === 0) throw new RunInputError(`--good ${good} --bad ${bad}: no first-parent commit after the good end up to the bad end`);
  return { ...range, commits };
}

/** Which way a metric is better. */
export type Direction = 'bigger' | 'smaller';

/**
 * A metric's better direction: the one its samples carry (issue 40: every metric declares one),
 * else what results/direction.ts derives from its id and kind for a record that predates it (a
 * time better smaller, a speedup bigger, the training's step time over the resident run's smaller).
 */
export function bisectDirection(metric: Pick<ProcessSamples, 'id' | 'kind'> & { readonly direction?: Direction }): Direction {
  if (metric.direction) return metric.direction;
  const derived = directionOf({ id: metric.id, kind: metric.kind, unit: '' });
  if (derived === 'bigger' || derived === 'smaller') return derived;
  // Information (a host probe, a sync floor) never reaches a bisect (ab.ts leaves it out); by its kind if it did.
  return metric.kind === 'time' ? 'smaller' : 'bigger';
}

/**
 * One metric's per-process values judged in its own direction: judgeProcesses reads the bad
 * direction from the kind (a ratio's is down, a time's up), so a metric better smaller is judged
 * as a time; the verdict keeps the metric's kind (its unit in the table).
 */
export function judgeInDirection(s: ProcessSamples, tolerance: number): ProcessVerdict {
  const judgedAs = bisectDirection(s) === 'bigger' ? 'ratio' : 'time';
  return { ...judgeProcesses({ ...s, kind: judgedAs }, { tolerance, alpha: DEFAULT_PROCESS_ALPHA }), kind: s.kind };
}

/**
 * The most looks a probe takes (K + K processes each): a third when the deciding metric is still
 * inconclusive after two, before the probe is called unknown. At alpha 0.005 per look, at most
 * 1.5% false alarms per deciding metric over the three (Bonferroni).
 */
export const MAX_LOOKS = 3;

/**
 * The order in which the metrics that regressed at the bad end are asked at each probe: ratios
 * first (paired within a process, they move ~3-6% between processes where absolute times on a
 * loaded software device move more: docs/own-pipeline.md), then the clearest change at the bad
 * end (its log change over the width of its interval).
 */
export function followOrder(regressed: readonly ProcessVerdict[]): string[] {
  const clarity = (v: ProcessVerdict) => Math.abs(Math.log1p(v.change)) / Math.max(Math.log1p(v.ci[1]) - Math.log1p(v.ci[0]), Number.MIN_VALUE);
  return [...regressed].sort((a, b) => (a.kind === b.kind ? clarity(b) - clarity(a) : a.kind === 'ratio' ? -1 : 1)).map((v) => v.id);
}

/** One look's judgement of a probe. */
export interface ProbeJudgement {
  readonly outcome: 'worse' | 'same' | 'unknown';
  /** The deciding verdicts, in the order they are asked (at the bad end without a metric to follow: the regressed ones when worse, else all). */
  readonly verdicts: readonly ProcessVerdict[];
  readonly information: readonly ProcessVerdict[];
  /** The followed metric that decided (null: none did, or the bad end without one to follow). */
  readonly decidedBy: string | null;
  /** Take another look (K more processes per arm) before deciding. */
  readonly again: boolean;
  /** Why it is unknown (null otherwise). */
  readonly reason: string | null;
}

/**
 * Judges a probe on the per-process values of both arms after `look` looks, each metric in its
 * own direction (tolerance per id).
 * - `follow` null (the bad end, no --metric): every metric decides; worse when any regressed,
 *   same when all passed (or improved), else another look, then unknown.
 * - `follow` ids (after the bad end, or --metric): asked in order, the first conclusive one
 *   decides (regressed: worse; pass or improved: same); while none is, another look, then
 *   unknown. Every other metric is information: however noisy, it never makes a probe unknown.
 */
export function judgeProbe(
  samples: readonly ProcessSamples[],
  follow: readonly string[] | null,
  look: number,
  tolerance: (id: string) => number,
): ProbeJudgement {
  const all = samples.map((s) => judgeInDirection(s, tolerance(s.id)));
  const looks = `${look} look${look === 1 ? '' : 's'}`;
  const more = look < MAX_LOOKS;
  const ids = (vs: readonly ProcessVerdict[]) => vs.map((v) => v.id).join(', ');
  if (follow === null) {
    const regressed = all.filter((v) => v.verdict === 'regressed');
    const open = all.filter((v) => v.verdict === 'inconclusive');
    if (regressed.length > 0) {
      const verdicts = followOrder(regressed).map((id) => regressed.find((v) => v.id === id)!);
      return { outcome: 'worse', verdicts, information: all.filter((v) => v.verdict !== 'regressed'), decidedBy: null, again: false, reason: null };
    }
    if (open.length === 0) return { outcome: 'same', verdicts: all, information: [], decidedBy: null, again: false, reason: null };
    return { outcome: 'unknown', verdicts: all, information: [], decidedBy: null, again: more, reason: `${ids(open)} inconclusive after ${looks}` };
  }
  const followed = follow.flatMap((id) => all.filter((v) => v.id === id));
  const information = all.filter((v) => !follow.includes(v.id));
  if (followed.length === 0) {
    return {
      outcome: 'unknown',
      verdicts: [],
      information,
      decidedBy: null,
      again: false,
      reason: `it recorded none of the metrics followed (${follow.join(', ')})`,
    };
  }
  const decider = followed.find((v) => v.verdict !== 'inconclusive');
  if (decider) {
    return { outcome: decider.verdict === 'regressed' ? 'worse' : 'same', verdicts: followed, information, decidedBy: decider.id, again: false, reason: null };
  }
  return { outcome: 'unknown', verdicts: followed, information, decidedBy: null, again: more, reason: `${ids(followed)} inconclusive after ${looks}` };
}

/**
 * The largest between-process SD (of logs) of a deciding metric with which a probe of
 * `processes` per arm (all its looks together) shows an unchanged commit `same` with 95%
 * probability at `tolerance`: the inverse of calibrate's smallestTolerance (runner/calibrate.ts),
 * sd = -log(1 - 2 tol) / ((t + z) sqrt(2/K)) for a metric better bigger, log(1 + 2 tol) / (...)
 * for one better smaller, t = t(1 - alpha, 2K - 2), z = z(0.95). What docs/baselines.md says a
 * bisect tolerates.
 */
export function toleratedSpread(tolerance: number, direction: Direction, processes: number): number {
  return (direction === 'bigger' ? -Math.log(1 - 2 * tolerance) : Math.log(1 + 2 * tolerance)) / passReach(processes);
}

/**
 * The bisection over commits 0..n-1 whose last one (the bad end) is known to be worse: the next
 * index to probe, or null once `worse` holds the first worse index after a `same` one (or the start).
 * `same` is the highest index known not worse (-1: the good end). Indices in `skipped` (a probe
 * whose harness could not start) are passed over as `git bisect skip` does: the untested index
 * nearest the middle of the open range, the lower one first; null when none is left.
 */
export function nextProbe(same: number, worse: number, skipped: ReadonlySet<number> = new Set()): number | null {
  const middle = Math.floor((same + worse) / 2);
  for (let d = 0; middle - d > same || middle + d < worse; d++) {
    if (middle - d > same && !skipped.has(middle - d)) return middle - d;
    if (d > 0 && middle + d < worse && !skipped.has(middle + d)) return middle + d;
  }
  return null;
}

/** What the search needs of a probe. */
type Probed = Pick<BisectProbe, 'commit' | 'outcome' | 'errors' | 'reason'>;

/**
 * The search of a bisect over `commits` (oldest first, the bad end last), given how to probe
 * one: the bad end first (a change that is not there is said at once), then halving the open
 * range. A probe judged "skip" (its harness did not start) is passed over and the search goes
 * on around it; when only skipped commits are left between a same and a worse one, the culprit
 * is one of them (named). An "unknown" probe (its deciding metric inconclusive after its looks)
 * stops the search: the change is too small for K processes here, or not monotonic. A bad end
 * that cannot start is the user's to fix (RunInputError).
 */
export async function searchFirstWorse<P extends Probed>(
  commits: readonly string[],
  probe: (index: number) => Promise<P>,
): Promise<{ culprit: P | null; reason: string | null }> {
  const short = (i: number) => (i < 0 ? 'the good end' : commits[i]!.slice(0, 12));
  const last = await probe(commits.length - 1);
  if (last.outcome === 'skip') throw new RunInputError(`--bad ${short(commits.length - 1)}: ${last.errors[0]}; name a bad end whose harness runs`);
  if (last.outcome === 'same')
    return { culprit: null, reason: 'the bad end is not worse than the good end: the change is too small to judge here, or not there' };
  if (last.outcome === 'unknown')
    return { culprit: null, reason: `the bad end could not be judged against the good end (${last.errors[0] ?? last.reason ?? 'inconclusive'})` };
  let same = -1;
  let worse = commits.length - 1;
  let culprit = last;
  const skipped = new Set<number>();
  for (let next = nextProbe(same, worse, skipped); next !== null; next = nextProbe(same, worse, skipped)) {
    const found = await probe(next);
    if (found.outcome === 'skip') skipped.add(next);
    else if (found.outcome === 'unknown') {
      return {
        culprit: null,
        reason: `${found.commit.slice(0, 12)} could not be judged (${found.errors[0] ?? found.reason ?? 'inconclusive'}): the change is too small or not monotonic; the range left is after ${short(same)} up to ${short(worse)}`,
      };
    } else if (found.outcome === 'worse') {
      worse = next;
      culprit = found;
    } else same = next;
  }
  const left = [...skipped].filter((i) => i > same && i < worse).sort((a, b) => a - b);
  if (left.length > 0) {
    return {
      culprit: null,
      reason: `only commits whose harness did not start are left: the first worse commit after ${short(same)} is one of ${left.map(short).join(', ')} (skipped) or ${short(worse)} (worse)`,
    };
  }
  return { culprit, reason: null };
}

/**
 * Whether `error` says that `arm`'s harness never measured: a HarnessStartError of its measure
 * host, or any failure naming the arm before its first record (a commit from before the measure
 * host runs a perf command per process, whose failure says only that no record was written).
 */
function neverStarted(error: unknown, arm: Arm): boolean {
  if (error instanceof HarnessStartError) return error.label === arm.label;
  return arm.records.length === 0 && error instanceof Error && error.message.startsWith(`${arm.label}: `);
}

/** The first line of an error's message. */
const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/** One look's worth of a probe: the per-process values of both arms so far, and whether any process failed. */
export interface MeasuredLook {
  readonly samples: readonly ProcessSamples[];
  readonly failed: boolean;
}

/**
 * Takes a probe's looks (`measure(look)`: K more processes per arm, ABBA, then every judged
 * metric's per-process values so far) and judges after each (judgeProbe), until a deciding
 * verdict is conclusive, a process failed, or MAX_LOOKS are taken. `follow` null: the bad end,
 * decided by `metric` when named (one it does not record is the user's to fix), else by all.
 */
export async function decideProbe(
  measure: (look: number) => Promise<MeasuredLook>,
  follow: readonly string[] | null,
  metric: string | null,
  tolerance: (id: string) => number,
): Promise<ProbeJudgement & { readonly looks: number }> {
  for (let look = 1; ; look++) {
    const { samples, failed } = await measure(look);
    if (follow === null && metric && !samples.some((s) => s.id === metric)) {
      throw new RunInputError(`--metric ${metric}: no such ratio or time metric in both arms (${samples.map((s) => s.id).join(', ')})`);
    }
    const judged = judgeProbe(samples, follow ?? (metric ? [metric] : null), look, tolerance);
    if (!judged.again || failed) return { ...judged, looks: look };
    console.log(`${LOG} ${judged.reason}; more processes per arm (look ${look + 1} of at most ${MAX_LOOKS})`);
  }
}

/**
 * `npm run perf:bisect`: finds the first first-parent commit of `range` whose followed metric is
 * worse than at the good end. Each probe is an ABBA A/B of the commit against the good end
 * (per-process values, perf:ab's verdict rule, each metric in its own direction). The bad end is
 * probed first, so that a change that is not there (or too small to judge) is said at once; the
 * metrics that regressed there (or --metric) decide every later probe, the others are shown for
 * information. A probe whose deciding metrics are all inconclusive takes another look, up to
 * MAX_LOOKS. About log2(N) + 1 probes. The good end's checkout and measure host serve every probe.
 */
export async function runBisect(options: BisectOptions): Promise<BisectResult> {
  const started = performance.now();
  const { good, bad, commits } = options.range;
  const abOptions = { ...options, base: options.good, head: null };
  const overrides = await readToleranceOverrides();
  const tolerance = (id: string) => overrides[id] ?? AB_TOLERANCE;
  const kinds = options.kinds ?? ['ratio', 'time'];
  const workspace = await openWorkspace('gtp-bisect-');
  let base: Arm | null = null;
  const probes: BisectProbe[] = [];
  // What decides the probes after the bad end: --metric, or what regressed there (set by the first probe).
  let follow: readonly string[] | null = options.metric ? [options.metric] : null;
  const result = (culprit: BisectProbe | null, reason: string | null): BisectResult => ({
    good,
    bad,
    commits: commits.length,
    follows: follow ?? [],
    probes,
    culprit,
    reason,
    minutes: (performance.now() - started) / 60_000,
  });
  try {
    base = await openArm(workspace, 'good', 'base', good, abOptions, options.good);
    // Each probe empties base.records: whether the good end ever measured is kept here.
    let baseMeasured = false;
    const probe = async (index: number): Promise<BisectProbe> => {
      const commit = commits[index]!;
      const folder = `probe-${probes.length + 1}`;
      console.log(`${LOG} probe ${probes.length + 1}: ${commit.slice(0, 12)} (${index + 1} of ${commits.length} after the good end)`);
      base!.records.length = 0; // each probe is its own ABBA comparison against the good end
      const subject = await git(['log', '-1', '--format=%s', commit]);
      let head: Arm | null = null;
      try {
        head = await openArm(workspace, folder, 'head', commit, abOptions, commit.slice(0, 12));
        const arms = [base!, head] as const;
        const measure = async (look: number): Promise<MeasuredLook> => {
          await measureArms(arms, abOptions, workspace.work, `p${probes.length + 1}-${look}`);
          const samples = perProcessValues(arms[0].records, arms[1].records).filter((s) => kinds.includes(s.kind));
          return { samples, failed: armErrors(arms).length > 0 };
        };
        const judged = await decideProbe(measure, probes.length === 0 ? null : follow, options.metric, tolerance);
        const errors = armErrors([base!, head]);
        const done: BisectProbe = {
          commit,
          subject,
          // A probe whose processes failed is not evidence either way.
          outcome: errors.length > 0 ? 'unknown' : judged.outcome,
          verdicts: judged.verdicts,
          ...(judged.decidedBy ? { decidedBy: judged.decidedBy } : {}),
          information: judged.information,
          looks: judged.looks,
          processes: [base!.records.length, head.records.length],
          errors,
          ...(judged.reason && errors.length === 0 ? { reason: judged.reason } : {}),
        };
        if (probes.length === 0 && follow === null && done.outcome === 'worse') follow = done.verdicts.map((v) => v.id);
        probes.push(done);
        baseMeasured = true;
        console.log(`${LOG} ${commit.slice(0, 12)}: ${done.outcome}${done.decidedBy ? ` (${done.decidedBy})` : ''}`);
        return done;
      } catch (error) {
        if (workspace.cleanup.interrupted()) throw error;
        // The good end serves every probe: if it cannot start, nothing can be judged.
        baseMeasured ||= base!.records.length > 0;
        if (!baseMeasured && neverStarted(error, base!)) throw new RunInputError(`--good ${options.good}: ${firstLine(error)}`);
        // The probe's own harness did not start (a commit without perf/, code that does not run),
        // or its checkout could not be set up (npm ci): no evidence either way, as `git bisect skip`.
        const cause =
          head !== null && neverStarted(error, head)
            ? firstLine(error)
            : head === null && !(error instanceof RunInputError)
              ? `it could not be set up: ${firstLine(error)}`
              : null;
        if (cause === null) throw error;
        const skipped: BisectProbe = {
          commit,
          subject,
          outcome: 'skip',
          verdicts: [],
          information: [],
          looks: 0,
          processes: [base!.records.length, head?.records.length ?? 0],
          errors: [cause],
        };
        probes.push(skipped);
        console.log(`${LOG} ${commit.slice(0, 12)}: skip (${cause})`);
        return skipped;
      } finally {
        await head?.host?.close();
        await removeWorktree(join(workspace.work, folder));
      }
    };
    const { culprit, reason } = await searchFirstWorse(commits, probe);
    return result(culprit, reason);
  } catch (error) {
    // Interrupted: the stopped processes' failures are not the outcome; the handler exits 130/143.
    if (workspace.cleanup.interrupted()) await new Promise<never>(() => undefined);
    throw error;
  } finally {
    await base?.host?.close();
    await workspace.cleanup.done();
  }
}
