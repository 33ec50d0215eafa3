import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../base/random.js';
import type { BisectProbe } from '../results/ab-result.js';
import type { ProcessSamples } from '../results/process-verdict.js';
import {
  bisectDirection,
  decideProbe,
  followOrder,
  judgeInDirection,
  judgeProbe,
  MAX_LOOKS,
  type MeasuredLook,
  nextProbe,
  searchFirstWorse,
  toleratedSpread,
} from './bisect.js';
import { smallestTolerance } from './calibrate.js';
import { HarnessStartError, startCause } from './harness-start.js';
import { RunInputError } from './perf.js';

describe('nextProbe', () => {
  it('halves the open range until the first worse index follows a same one', () => {
    // 8 commits, the 6th (index 5) the first worse: probes 3 (same), 5 (worse), 4 (same), then done.
    const firstWorse = 5;
    let same = -1;
    let worse = 7;
    const probed: number[] = [];
    for (let next = nextProbe(same, worse); next !== null; next = nextProbe(same, worse)) {
      probed.push(next);
      if (next >= firstWorse) worse = next;
      else same = next;
    }
    expect(probed).toEqual([3, 5, 4]);
    expect(worse).toBe(firstWorse);
    expect(nextProbe(-1, 0)).toBeNull();
  });
});

describe('nextProbe with skipped commits (as git bisect skip)', () => {
  it('takes the untested index nearest the middle, the lower first, and none when only skipped ones are left', () => {
    expect(nextProbe(-1, 7)).toBe(3);
    expect(nextProbe(-1, 7, new Set([3]))).toBe(2);
    expect(nextProbe(-1, 7, new Set([3, 2]))).toBe(4);
    expect(nextProbe(-1, 7, new Set([0, 1, 2, 3, 4, 5, 6]))).toBeNull();
    expect(nextProbe(4, 5, new Set())).toBeNull();
    expect(nextProbe(2, 4, new Set([3]))).toBeNull();
  });
});

/** A probe of commit i: outcome from the table, skip carrying its cause. */
const commits = Array.from({ length: 8 }, (_, i) => `c${i}`.padEnd(40, '0'));
function prober(outcomes: Record<number, BisectProbe['outcome']>, firstWorse: number) {
  const probed: number[] = [];
  const probe = async (i: number) => {
    probed.push(i);
    const outcome = outcomes[i] ?? (i >= firstWorse ? 'worse' : 'same');
    return {
      commit: commits[i]!,
      outcome,
      errors: outcome === 'skip' ? [`probe-${probed.length} (${commits[i]!.slice(0, 12)}): its harness did not start: no perf files`] : [],
    };
  };
  return { probe, probed };
}

describe('searchFirstWorse', () => {
  it('finds the first worse commit in log2(N) + 1 probes', async () => {
    const { probe, probed } = prober({}, 5);
    expect((await searchFirstWorse(commits, probe)).culprit?.commit).toBe(commits[5]);
    expect(probed).toEqual([7, 3, 5, 4]);
  });

  it('goes on past a probe whose harness cannot start (skip), and still names the culprit (issue 30)', async () => {
    const { probe, probed } = prober({ 3: 'skip' }, 5);
    const found = await searchFirstWorse(commits, probe);
    expect(found).toEqual({ culprit: expect.objectContaining({ commit: commits[5], outcome: 'worse' }), reason: null });
    expect(probed).toEqual([7, 3, 2, 4, 5]);
  });

  it('names the candidates when only skipped commits are left before the first worse one', async () => {
    const { probe } = prober({ 4: 'skip', 3: 'skip' }, 4);
    const found = await searchFirstWorse(commits, probe);
    expect(found.culprit).toBeNull();
    expect(found.reason).toBe(
      `only commits whose harness did not start are left: the first worse commit after ${commits[2]!.slice(0, 12)} is one of ${commits[3]!.slice(0, 12)}, ${commits[4]!.slice(0, 12)} (skipped) or ${commits[5]!.slice(0, 12)} (worse)`,
    );
  });

  it('refuses a bad end whose harness cannot start (exit 2), one line naming it', async () => {
    const { probe } = prober({ 7: 'skip' }, 5);
    const refused = searchFirstWorse(commits, probe);
    await expect(refused).rejects.toBeInstanceOf(RunInputError);
    await expect(refused).rejects.toThrow(
      `--bad ${commits[7]!.slice(0, 12)}: probe-1 (${commits[7]!.slice(0, 12)}): its harness did not start: no perf files; name a bad end whose harness runs`,
    );
  });

  it('still stops on an unknown probe, and says when the bad end is not worse', async () => {
    expect((await searchFirstWorse(commits, prober({ 3: 'unknown' }, 5).probe)).reason).toMatch(
      /^c3\S* could not be judged .*range left is after the good end up to c7/,
    );
    expect((await searchFirstWorse(commits, prober({}, 99).probe)).reason).toMatch(/^the bad end is not worse than the good end/);
  });
});

describe('startCause: what a harness that did not start said, in one line', () => {
  it("takes gtp's one-line error, else the thrown error's line above the stack, else the last line", () => {
    expect(startCause('error: perf: no such folder of perf files here (/x)\nRun `gtp --help`\n', 'exit code 2')).toBe(
      'perf: no such folder of perf files here (/x) (exit code 2)',
    );
    const stack = [
      'file:///x/src/runner/perf.ts:29',
      '      throw new RunInputError(',
      '            ^',
      '',
      "RunInputError: perf: no such folder of perf files here (/tmp/w); run gtp perf from your project's root",
      '    at scenarioFiles (file:///x/src/runner/perf.ts:29:13)',
      '    at file:///x/src/cli/measure-host.ts:15:15',
      '',
      'Node.js v20.19.0',
    ].join('\n');
    expect(startCause(stack, 'exit code 1')).toBe(
      "RunInputError: perf: no such folder of perf files here (/tmp/w); run gtp perf from your project's root (exit code 1)",
    );
    expect(startCause('Segmentation fault\n', 'SIGSEGV')).toBe('Segmentation fault (SIGSEGV)');
    expect(startCause('', 'exit code 1')).toBe('it printed nothing (exit code 1)');
    expect(new HarnessStartError('probe-1 (abc)', 'x (exit code 1)').message).toBe('probe-1 (abc): its harness did not start: x (exit code 1)');
  });
});

/** K per-process values, log-normal around `median` with SD `sd` of the logs (Box-Muller on a seeded stream). */
function processes(rng: ReturnType<typeof seededRng>, k: number, median: number, sd: number): number[] {
  return Array.from({ length: k }, () => {
    const z = Math.sqrt(-2 * Math.log(1 - rng.float())) * Math.cos(2 * Math.PI * rng.float());
    return median * Math.exp(sd * z);
  });
}

const TEN = () => 0.1;

/** Samples of one metric, base and head drawn apart. */
function samples(
  seed: number,
  id: string,
  kind: ProcessSamples['kind'],
  [base, head]: readonly [number, number],
  sd: number,
  k = 8,
  headSd = sd,
): ProcessSamples {
  const rng = seededRng(seed);
  return { id, kind, base: processes(rng, k, base, sd), head: processes(rng, k, head, headSd) };
}

describe('each metric judged in its own direction (a local seam until metrics carry one, issue 40)', () => {
  it('a speedup is better bigger, a time and the step time against the resident run better smaller', () => {
    expect(bisectDirection({ id: 'preprocess.speedup', kind: 'ratio' })).toBe('bigger');
    expect(bisectDirection({ id: 'dtypes.64x1x28x28.speedup-vs-float32.uint8', kind: 'ratio' })).toBe('bigger');
    expect(bisectDirection({ id: 'preprocess.time.device-uint8', kind: 'time' })).toBe('smaller');
    expect(bisectDirection({ id: 'training.step-time-vs-resident.cpu-normalize', kind: 'ratio' })).toBe('smaller');
    // A direction the samples carry (issue 40's records) wins over the derived one.
    expect(bisectDirection({ id: 'x.time-ratio', kind: 'ratio', direction: 'smaller' })).toBe('smaller');
  });

  it('a ratio better smaller that tripled regressed; a speedup that tripled improved (both keep their kind)', () => {
    const tripled = (id: string) => samples(1, id, 'ratio', [1.1, 3.3], 0.03);
    const resident = judgeInDirection(tripled('training.step-time-vs-resident.device-normalize'), 0.1);
    expect([resident.verdict, resident.kind]).toEqual(['regressed', 'ratio']);
    expect(judgeInDirection(tripled('preprocess.speedup'), 0.1).verdict).toBe('improved');
    const fell = judgeInDirection(samples(2, 'training.step-time-vs-resident.cpu-normalize', 'ratio', [3.3, 1.1], 0.03), 0.1);
    expect(fell.verdict).toBe('improved');
  });
});

// The chain of issue 44: good end, two neutral commits, the commit that makes device-uint8 ~3x
// slower, two neutral commits. Per process, as the example project records on lavapipe: the
// speedup (host-float32 / device-uint8, ~4% between processes), each strategy's time (~8%). The
// second neutral commit carries a noisy unrelated time: host-float32 +7% with a 25% spread.
const CHAIN = ['neutral 1', 'neutral 2 (noisy host time)', 'device-uint8: 3x slower', 'neutral 3', 'neutral 4'];
const CULPRIT = 2;
function chainLook(index: number, look: number): MeasuredLook {
  const k = 8 * look;
  const slow = index >= CULPRIT;
  const seed = 1000 * (index + 1);
  const noisy = index === 1;
  return {
    samples: [
      samples(seed + 1, 'preprocess.speedup', 'ratio', [2, slow ? 2 / 3.34 : 2], 0.04, k),
      samples(seed + 2, 'preprocess.time.device-uint8', 'time', [0.5, slow ? 1.67 : 0.5], 0.08, k),
      samples(seed + 3, 'preprocess.time.host-float32', 'time', [1, noisy ? 1.07 : 1], 0.08, k, noisy ? 0.25 : 0.08),
    ],
    failed: false,
  };
}

describe('judgeProbe: the metrics worse at the bad end decide, the others are information (issue 44)', () => {
  it('the bad end: worse on what regressed, followed ratios first; the rest is information', () => {
    const judged = judgeProbe(chainLook(4, 1).samples, null, 1, TEN);
    expect(judged.outcome).toBe('worse');
    expect(judged.verdicts.map((v) => [v.id, v.verdict])).toEqual([
      ['preprocess.speedup', 'regressed'],
      ['preprocess.time.device-uint8', 'regressed'],
    ]);
    expect(judged.information.map((v) => v.id)).toEqual(['preprocess.time.host-float32']);
    expect(followOrder([...judged.verdicts].reverse())).toEqual(['preprocess.speedup', 'preprocess.time.device-uint8']);
  });

  it('a neutral commit with a noisy unrelated time is the same, decided by the followed speedup; every metric deciding would leave it unknown', () => {
    const follow = ['preprocess.speedup', 'preprocess.time.device-uint8'];
    const third = chainLook(1, MAX_LOOKS).samples;
    const judged = judgeProbe(chainLook(1, 1).samples, follow, 1, TEN);
    expect([judged.outcome, judged.decidedBy, judged.again]).toEqual(['same', 'preprocess.speedup', false]);
    expect(judged.information.map((v) => [v.id, v.verdict])).toEqual([['preprocess.time.host-float32', 'inconclusive']]);
    // The old rule (any judged metric inconclusive: unknown) stops here, even after three looks.
    expect(judgeProbe(third, null, MAX_LOOKS, TEN)).toMatchObject({
      outcome: 'unknown',
      again: false,
      reason: 'preprocess.time.host-float32 inconclusive after 3 looks',
    });
  });

  it('the first conclusive followed metric decides; none recorded is unknown, said', () => {
    const open = samples(7, 'preprocess.speedup', 'ratio', [2, 2], 0.3);
    const clear = samples(8, 'preprocess.time.device-uint8', 'time', [0.5, 1.67], 0.05);
    expect(judgeInDirection(open, 0.1).verdict).toBe('inconclusive');
    const judged = judgeProbe([open, clear], ['preprocess.speedup', 'preprocess.time.device-uint8'], 1, TEN);
    expect([judged.outcome, judged.decidedBy]).toEqual(['worse', 'preprocess.time.device-uint8']);
    expect(judgeProbe([clear], ['preprocess.speedup'], 1, TEN)).toMatchObject({
      outcome: 'unknown',
      again: false,
      reason: 'it recorded none of the metrics followed (preprocess.speedup)',
    });
  });
});

describe('decideProbe: another look while the deciding metric is inconclusive, a third before giving up', () => {
  const open = samples(7, 'preprocess.speedup', 'ratio', [2, 2], 0.3);
  const tight = samples(9, 'preprocess.speedup', 'ratio', [2, 2], 0.02);
  const noise = samples(10, 'preprocess.time.host-float32', 'time', [1, 1.07], 0.25);
  const follow = ['preprocess.speedup'];

  it('takes a third look and decides there; stops at the third', async () => {
    const looked: number[] = [];
    const thirdPasses = async (look: number): Promise<MeasuredLook> => {
      looked.push(look);
      return { samples: [look < 3 ? open : tight, noise], failed: false };
    };
    expect(await decideProbe(thirdPasses, follow, null, TEN)).toMatchObject({ outcome: 'same', looks: 3, decidedBy: 'preprocess.speedup' });
    expect(looked).toEqual([1, 2, 3]);
    const never = await decideProbe(async () => ({ samples: [open], failed: false }), follow, null, TEN);
    expect(never).toMatchObject({ outcome: 'unknown', looks: MAX_LOOKS, reason: 'preprocess.speedup inconclusive after 3 looks' });
  });

  it('a noisy metric that is not followed costs no look; a failed process stops the looks', async () => {
    expect(await decideProbe(async () => ({ samples: [tight, noise], failed: false }), follow, null, TEN)).toMatchObject({ outcome: 'same', looks: 1 });
    expect(await decideProbe(async () => ({ samples: [open], failed: true }), follow, null, TEN)).toMatchObject({ looks: 1 });
  });

  it("--metric not recorded at the bad end is the user's to fix (exit 2), naming the metrics there", async () => {
    await expect(decideProbe(async () => ({ samples: [tight, noise], failed: false }), null, 'preprocess.nope', TEN)).rejects.toThrow(
      new RunInputError('--metric preprocess.nope: no such ratio or time metric in both arms (preprocess.speedup, preprocess.time.host-float32)'),
    );
  });
});

describe("the search over issue 44's chain, each probe decided look by look on plain per-process values", () => {
  it('names the culprit in 3 probes although a neutral commit carries a noisy unrelated time', async () => {
    const chain = CHAIN.map((subject, i) => `${i}${subject}`.padEnd(40, '0'));
    let follow: readonly string[] | null = null;
    const decided: Array<[number, string, number]> = [];
    const probe = async (index: number) => {
      const judged = await decideProbe(async (look) => chainLook(index, look), follow, null, TEN);
      if (follow === null) follow = judged.verdicts.map((v) => v.id);
      decided.push([index, judged.outcome, judged.looks]);
      return { commit: chain[index]!, outcome: judged.outcome, errors: [], ...(judged.reason ? { reason: judged.reason } : {}) };
    };
    const found = await searchFirstWorse(chain, probe);
    expect(found).toEqual({ culprit: expect.objectContaining({ commit: chain[CULPRIT] }), reason: null });
    expect(decided).toEqual([
      [4, 'worse', 1],
      [1, 'same', 1],
      [2, 'worse', 1],
    ]);
  });
});

describe('how much noise a probe tolerates (docs/baselines.md)', () => {
  it('is the spread with which calibrate says the tolerance holds, per look, as the docs state it', () => {
    const docs = readFileSync(new URL('../../docs/baselines.md', import.meta.url), 'utf8');
    for (const direction of ['bigger', 'smaller'] as const) {
      const figures = [8, 16, 24].map((k) => {
        const sd = toleratedSpread(0.1, direction, k);
        // Just inside it, calibrate's smallest tolerance is the 10% in force; just beyond, more.
        expect(smallestTolerance(sd * 0.999, direction === 'bigger' ? 'ratio' : 'time', k)).toBe(0.1);
        expect(smallestTolerance(sd * 1.06, direction === 'bigger' ? 'ratio' : 'time', k)).toBeGreaterThan(0.1);
        return `${(100 * sd).toFixed(1)}%`;
      });
      expect(docs).toContain(`${direction}: ${figures.join(' / ')}`);
    }
  });
});
