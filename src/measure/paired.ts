import type * as tf from '@tensorflow/tfjs';
import { seededRng } from '../base/random.js';
import { onDevice } from '../backend/synced-transfers.js';
import type { BackendContext } from '../backend/types.js';
import { bootstrapCI, median, type ConfidenceInterval } from './statistics.js';

/** Timings of two alternatives measured in interleaved pairs in one process. */
export interface PairedSamples {
  /** Milliseconds of A and B; index i of each is one pair. */
  readonly a: readonly number[];
  readonly b: readonly number[];
  /** The host-state probe's milliseconds, one per pair, when the sampler was given one. */
  readonly probe?: readonly number[];
}

/**
 * What one variant returns for a round: its own timing in milliseconds (e.g. `timeSynced(...)`),
 * or the tensor it made, which the sampler then times from the call until it exists on the
 * device (uploaded and synced, as timeSynced does) and disposes.
 */
export type Measured = number | tf.Tensor;
export type SampledVariant = (round: number) => Measured | Promise<Measured>;

export interface InterleavedOptions {
  readonly warmupRounds: number;
  readonly rounds: number;
  /** The backend the variants run on; needed when a variant returns a tensor rather than a timing. */
  readonly context?: BackendContext;
  /** Runs before each round's variants, outside their timings (samplePairs' host-state probe). */
  readonly beforeRound?: (round: number) => void;
}

/** One variant's milliseconds for one round: its own figure, or its tensor timed until resident on the device. */
async function timeVariant(variant: SampledVariant, round: number, name: string, context: BackendContext | undefined): Promise<number> {
  if (!context) {
    const out = await variant(round);
    if (typeof out === 'number') return out;
    out.dispose();
    // Without the context the sampler can neither upload the tensor nor wait for the device.
    throw new Error(
      `variant ${name} returned a tensor, not a timing: pass the sampler { context } so it times the tensor until it is on the device, or return timeSynced(context, work)`,
    );
  }
  const { result, ms } = await onDevice(context, `variant ${name}`, () => variant(round));
  if (typeof result === 'number') return result;
  result.dispose();
  return ms;
}

/**
 * Runs every variant once per round, rotating which goes first (AB, BA for two; ABC, BCA, CAB
 * for three), so drift, caches and background load hit all alike; warm-up rounds (pipeline
 * compilation, buffer pools) are discarded. Returns one array of timings per variant, index i
 * of each from round i. Each variant is told the round number, so all of a round can work on
 * the same input whatever the order. A variant returning a tensor is timed here until the tensor
 * exists on `context`'s device (a fresh host tensor that crossed 0 B is an error).
 */
export async function sampleInterleaved(
  variants: readonly SampledVariant[],
  { warmupRounds, rounds, context, beforeRound }: InterleavedOptions,
): Promise<number[][]> {
  const samples = variants.map(() => [] as number[]);
  for (let r = 0; r < warmupRounds + rounds; r++) {
    beforeRound?.(r);
    const times = new Array<number>(variants.length);
    for (let k = 0; k < variants.length; k++) {
      const v = (r + k) % variants.length;
      times[v] = await timeVariant(variants[v]!, r, String.fromCharCode(65 + v), context);
    }
    if (r >= warmupRounds) for (const [v, t] of times.entries()) samples[v]!.push(t);
  }
  return samples;
}

export interface PairedOptions {
  readonly warmupPairs: number;
  readonly pairs: number;
  readonly runA: SampledVariant;
  readonly runB: SampledVariant;
  /** The backend A and B run on; needed when they return tensors rather than timings. */
  readonly context?: BackendContext;
  /**
   * A host-state probe (measure/host-probe.ts) timed once before every pair: the state of the
   * host the pair ran in, the covariate of its ratio (results/covariate.ts).
   */
  readonly probe?: () => number;
}

/**
 * A probe timed before each measured round of `sampleInterleaved` (warm-up rounds excluded),
 * outside the variants' timings: pass `beforeRound`, read `timings` after (one per round).
 */
export function probeEachRound(probe: () => number, warmupRounds: number): { beforeRound: (round: number) => void; timings: number[] } {
  const timings: number[] = [];
  return {
    beforeRound: (round) => {
      if (round >= warmupRounds) timings.push(probe());
    },
    timings,
  };
}

/** Interleaved A/B pairs, alternating which goes first (ABBA...), each after the probe if given one. */
export async function samplePairs({ warmupPairs, pairs, runA, runB, context, probe }: PairedOptions): Promise<PairedSamples> {
  const probed = probe ? probeEachRound(probe, warmupPairs) : null;
  const [a, b] = await sampleInterleaved([runA, runB], {
    warmupRounds: warmupPairs,
    rounds: pairs,
    ...(context ? { context } : {}),
    ...(probed ? { beforeRound: probed.beforeRound } : {}),
  });
  return { a: a!, b: b!, ...(probed ? { probe: probed.timings } : {}) };
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
