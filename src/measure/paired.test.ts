import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { pairRatios, probeEachRound, sampleInterleaved, samplePairs } from './paired.js';

describe('interleaved sampling', () => {
  it('rotates the order each round and drops warm-up rounds', async () => {
    const order: string[] = [];
    const variant = (name: string, ms: number) => async (round: number) => {
      order.push(`${name}${round}`);
      return ms;
    };
    const samples = await sampleInterleaved([variant('A', 1), variant('B', 2), variant('C', 3)], { warmupRounds: 1, rounds: 2 });
    expect(order.join(' ')).toBe('A0 B0 C0 B1 C1 A1 C2 A2 B2');
    expect(samples).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  it('pairs alternate AB, BA and ratios are A/B', async () => {
    const order: string[] = [];
    let t = 0;
    const pairs = await samplePairs({
      warmupPairs: 0,
      pairs: 2,
      runA: async () => {
        order.push('A');
        return 4 + t++;
      },
      runB: async () => {
        order.push('B');
        return 2;
      },
    });
    expect(order.join('')).toBe('ABBA');
    expect(pairRatios(pairs)).toEqual([2, 2.5]);
  });

  it('runs a host-state probe before each measured pair, keeping the ABBA order, and returns its timings per pair', async () => {
    const order: string[] = [];
    let p = 0;
    const pairs = await samplePairs({
      warmupPairs: 1,
      pairs: 2,
      runA: () => {
        order.push('A');
        return 3;
      },
      runB: () => {
        order.push('B');
        return 1;
      },
      probe: () => {
        order.push('P');
        return ++p;
      },
    });
    // The warm-up pair gets no probe: only measured pairs carry a covariate.
    expect(order.join('')).toBe('ABPBAPAB');
    expect(pairs.probe).toEqual([1, 2]);
    expect(pairs.a).toHaveLength(2);
  });

  it('probeEachRound times its probe before each measured round of any number of variants, none in warm-up', async () => {
    const order: string[] = [];
    const probe = probeEachRound(() => order.push('P'), 1);
    await sampleInterleaved(
      ['A', 'B', 'C'].map((v) => () => order.push(v)),
      { warmupRounds: 1, rounds: 2, beforeRound: probe.beforeRound },
    );
    expect(order.join('')).toBe('ABCPBCAPCAB');
    expect(probe.timings).toEqual([4, 8]);
  });

  it('refuses a tensor from a variant when it has no context to put it on the device with, and disposes it', async () => {
    const numTensors = tf.memory().numTensors;
    const sampling = samplePairs({ warmupPairs: 0, pairs: 1, runA: () => tf.tensor1d([1, 2, 3]), runB: async () => 1 });
    await expect(sampling).rejects.toThrow(/variant A returned a tensor, not a timing: pass the sampler \{ context \}/);
    expect(tf.memory().numTensors).toBe(numTensors);
  });
});
