import { seededRng } from '../base/random.js';
import { bootstrapCI, median, type ConfidenceInterval } from './statistics.js';

/** Timings of two alternatives measured in interleaved pairs in one process. */
export interface PairedSamples {
  /** Milliseconds of A and B; index i of each is one pair. */
  readonly a: readonly number[];
  readonly b: readonly number[];
}

export interface InterleavedOptions {
  readonly warmupRounds: number;
  readonly rounds: number;
}

/**
 * Runs every variant once per round, rotating which goes first (AB, BA for two; ABC, BCA, CAB
 * for three), so drift, caches and background load hit all alike; warm-up rounds (pipeline
 * compilation, buffer pools) are discarded. Returns one array of timings per variant, index i
 * of each from round i. Each variant is told the round number, so all of a round can work on
 * the same input whatever the order.
 */
export async function sampleInterleaved(
  variants: ReadonlyArray<(round: number) => Promise<number>>,
  { warmupRounds, rounds }: InterleavedOptions,
): Promise<number[][]> {
  const samples = variants.map(() => [] as number[]);
  for (let r = 0; r < warmupRounds + rounds; r++) {
    const times = new Array<number>(variants.length);
    for (let k = 0; k < variants.length; k++) {
      const v = (r + k) % variants.length;
      times[v] = await variants[v]!(r);
    }
    if (r >= warmupRounds) for (const [v, t] of times.entries()) samples[v]!.push(t);
  }
  return samples;
}

export interface PairedOptions {
  readonly warmupPairs: number;
  readonly pairs: number;
  readonly runA: (round: number) => Promise<number>;
  readonly runB: (round: number) => Promise<number>;
}

/** Interleaved A/B pairs, alternating which goes first (ABBA...). */
export async function samplePairs({ warmupPairs, pairs, runA, runB }: PairedOptions): Promise<PairedSamples> {
  const [a, b] = await sampleInterleaved([runA, runB], { warmupRounds: warmupPairs, rounds: pairs });
  return { a: a!, b: b! };
}

/** Per-pair ratios a/b: above 1 means B was faster in that pair. */
export function pairRatios({ a, b }: PairedSamples): number[] {
  return a.map((ta, i) => ta / b[i]!);
}

/** How much faster B is than A, from interleaved pairs. */
export interface SpeedupEstimate {
  /** Median of per-pair ratios time(A)/time(B), with its bootstrap CI. */
  readonly ratio: ConfidenceInterval;
  readonly pairs: number;
  readonly medianMsA: number;
  readonly medianMsB: number;
}

/** Median per-pair ratio with a seeded 95% percentile-bootstrap CI. */
export function estimateSpeedup(samples: PairedSamples, seed = 1): SpeedupEstimate {
  return {
    ratio: bootstrapCI(pairRatios(samples), median, { rng: seededRng(seed) }),
    pairs: samples.a.length,
    medianMsA: median(samples.a),
    medianMsB: median(samples.b),
  };
}
