import type { BisectProbe, BisectResult } from '../results/ab-result.js';
import type { ProcessVerdict } from '../results/process-verdict.js';
import { type AbOptions, type Arm, armErrors, git, judgeArms, openArm, openWorkspace, removeWorktree } from './ab.js';
import { RunInputError } from './perf.js';

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
 * `same` is the highest index known not worse (-1: the good end).
 */
export function nextProbe(same: number, worse: number): number | null {
  return worse - same > 1 ? Math.floor((same + worse) / 2) : null;
}

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
    const probe = async (index: number): Promise<BisectProbe> => {
      const commit = commits[index]!;
      console.log(`[perf:bisect] probe ${probes.length + 1}: ${commit.slice(0, 12)} (${index + 1} of ${commits.length} after the good end)`);
      base!.records.length = 0; // each probe is its own ABBA comparison against the good end
      const head = await openArm(workspace, `probe-${probes.length + 1}`, 'head', commit, abOptions, commit.slice(0, 12));
      try {
        const all = await judgeArms([base!, head], abOptions, workspace.work, `p${probes.length + 1}-`);
        const verdicts = options.metric ? all.filter((v) => v.id === options.metric) : all;
        if (options.metric && verdicts.length === 0) {
          throw new RunInputError(`--metric ${options.metric}: no such ratio or time metric in both arms (${all.map((v) => v.id).join(', ')})`);
        }
        const errors = armErrors([base!, head]);
        const done: BisectProbe = {
          commit,
          subject: await git(['log', '-1', '--format=%s', commit]),
          // A probe whose processes failed is not evidence either way.
          outcome: errors.length > 0 ? 'unknown' : probeOutcome(verdicts),
          verdicts,
          processes: [base!.records.length, head.records.length],
          errors,
        };
        probes.push(done);
        console.log(`[perf:bisect] ${commit.slice(0, 12)}: ${done.outcome}`);
        return done;
      } finally {
        await head.host?.close();
        await removeWorktree(head.dir);
      }
    };
    const last = await probe(commits.length - 1);
    if (last.outcome === 'same') return result(null, 'the bad end is not worse than the good end: the change is too small to judge here, or not there');
    if (last.outcome === 'unknown')
      return result(null, `the bad end could not be judged against the good end (${last.errors[0] ?? 'inconclusive after two looks'})`);
    let same = -1;
    let worse = commits.length - 1;
    let culprit = last;
    for (let next = nextProbe(same, worse); next !== null; next = nextProbe(same, worse)) {
      const found = await probe(next);
      if (found.outcome === 'unknown') {
        return result(
          null,
          `${found.commit.slice(0, 12)} could not be judged (${found.errors[0] ?? 'inconclusive after two looks'}): the change is too small or not monotonic; the range left is after ${same < 0 ? 'the good end' : commits[same]!.slice(0, 12)} up to ${commits[worse]!.slice(0, 12)}`,
        );
      }
      if (found.outcome === 'worse') {
        worse = next;
        culprit = found;
      } else same = next;
    }
    return result(culprit, null);
  } catch (error) {
    // Interrupted: the stopped processes' failures are not the outcome; the handler exits 130/143.
    if (workspace.cleanup.interrupted()) await new Promise<never>(() => undefined);
    throw error;
  } finally {
    await base?.host?.close();
    await workspace.cleanup.done();
  }
}
