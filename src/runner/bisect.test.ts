import { describe, expect, it } from 'vitest';
import type { BisectProbe } from '../results/ab-result.js';
import { nextProbe, probeOutcome, searchFirstWorse } from './bisect.js';
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

describe('probeOutcome', () => {
  const verdict = (v: 'pass' | 'regressed' | 'improved' | 'inconclusive') => ({ verdict: v }) as Parameters<typeof probeOutcome>[0][number];
  it('is worse on any regression, unknown on any open verdict, else the same', () => {
    expect(probeOutcome([verdict('pass'), verdict('regressed'), verdict('inconclusive')])).toBe('worse');
    expect(probeOutcome([verdict('pass'), verdict('inconclusive')])).toBe('unknown');
    expect(probeOutcome([verdict('pass'), verdict('improved')])).toBe('same');
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
