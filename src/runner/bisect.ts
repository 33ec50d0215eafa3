import type { BisectProbe, BisectResult } from '../results/ab-result.js';
import type { ProcessVerdict } from '../results/process-verdict.js';
import { join } from 'node:path';
import { type AbOptions, type Arm, armErrors, git, judgeArms, openArm, openWorkspace, removeWorktree } from './ab.js';
import { commandName } from '../base/commands.js';
import { HarnessStartError } from './harness-start.js';
import { RunInputError } from './perf.js';

/** The prefix of bisect's progress lines, as the command is called here (`perf:bisect`, `gtp bisect`). */
const LOG = `[${commandName('bisect')}]`;

/** What `npm run perf:bisect` is asked to do. */
export interface BisectOptions extends Omit<AbOptions, 'base' | 'head'> {
  readonly good: string;
  readonly bad: string;
  /** The metric that moved; null: any judged metric that is worse. */
  readonly metric: string | null;
}

/** What a probe's verdicts say about the commit: worse if any decisive one regressed, unknown if any is open, else the same. */
export function probeOutcome(verdicts: readonly ProcessVerdict[]): BisectProbe['outcome'] {
  if (verdicts.some((v) => v.verdict === 'regressed')) return 'worse';
  if (verdicts.some((v) => v.verdict === 'inconclusive')) return 'unknown';
  return 'same';
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
type Probed = Pick<BisectProbe, 'commit' | 'outcome' | 'errors'>;

/**
 * The search of a bisect over `commits` (oldest first, the bad end last), given how to probe
 * one: the bad end first (a change that is not there is said at once), then halving the open
 * range. A probe judged "skip" (its harness did not start) is passed over and the search goes
 * on around it; when only skipped commits are left between a same and a worse one, the culprit
 * is one of them (named). An "unknown" probe stops the search: the change is too small or not
 * monotonic. A bad end that cannot start is the user's to fix (RunInputError).
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
    return { culprit: null, reason: `the bad end could not be judged against the good end (${last.errors[0] ?? 'inconclusive after two looks'})` };
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
        reason: `${found.commit.slice(0, 12)} could not be judged (${found.errors[0] ?? 'inconclusive after two looks'}): the change is too small or not monotonic; the range left is after ${short(same)} up to ${short(worse)}`,
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

/**
 * `npm run perf:bisect`: finds the first first-parent commit between `good` and `bad` whose
 * metric is worse than at `good`. Each probe is an ABBA A/B of the commit against the good end
 * (per-process values, perf:ab's verdict rule and its second look when inconclusive); the bad
 * end is probed first, so that a change that is not there (or too small to judge) is said at
 * once. About log2(N) + 1 probes. The good end's checkout and measure host serve every probe.
 */
export async function runBisect(options: BisectOptions): Promise<BisectResult> {
  const started = performance.now();
  const verify = async (ref: string, flag: string) => {
    try {
      return await git(['rev-parse', '--verify', `${ref}^{commit}`]);
    } catch {
      throw new RunInputError(`${flag} ${ref}: not a commit, branch or tag of this repository`);
    }
  };
  const good = await verify(options.good, '--good');
  const bad = await verify(options.bad, '--bad');
  const commits = (await git(['rev-list', '--first-parent', '--reverse', `${good}..${bad}`])).split('\n').filter(Boolean);
  if (commits.length === 0) throw new RunInputError(`--good ${options.good} --bad ${options.bad}: no first-parent commit after the good end up to the bad end`);
  const abOptions: AbOptions = { ...options, base: options.good, head: null };
  const workspace = await openWorkspace('gtp-bisect-');
  let base: Arm | null = null;
  const probes: BisectProbe[] = [];
  const result = (culprit: BisectProbe | null, reason: string | null): BisectResult => ({
    good,
    bad,
    commits: commits.length,
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
        const all = await judgeArms([base!, head], abOptions, workspace.work, `p${probes.length + 1}-`);
        const verdicts = options.metric ? all.filter((v) => v.id === options.metric) : all;
        if (options.metric && verdicts.length === 0) {
          throw new RunInputError(`--metric ${options.metric}: no such ratio or time metric in both arms (${all.map((v) => v.id).join(', ')})`);
        }
        const errors = armErrors([base!, head]);
        const done: BisectProbe = {
          commit,
          subject,
          // A probe whose processes failed is not evidence either way.
          outcome: errors.length > 0 ? 'unknown' : probeOutcome(verdicts),
          verdicts,
          processes: [base!.records.length, head.records.length],
          errors,
        };
        probes.push(done);
        baseMeasured = true;
        console.log(`${LOG} ${commit.slice(0, 12)}: ${done.outcome}`);
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
