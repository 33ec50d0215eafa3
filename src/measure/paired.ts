/** Timings of two alternatives measured in interleaved pairs in one process. */
export interface PairedSamples {
  /** Milliseconds of A and B; index i of each is one pair. */
  readonly a: readonly number[];
  readonly b: readonly number[];
}

export interface PairedOptions {
  readonly warmupPairs: number;
  readonly pairs: number;
  readonly runA: () => Promise<number>;
  readonly runB: () => Promise<number>;
}

/**
 * Runs A and B in pairs, alternating which goes first (ABBA...), so drift, caches and
 * background load hit both alike; the warm-up pairs (pipeline compilation, buffer pools)
 * are discarded.
 */
export async function samplePairs({ warmupPairs, pairs, runA, runB }: PairedOptions): Promise<PairedSamples> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < warmupPairs + pairs; i++) {
    let ta: number;
    let tb: number;
    if (i % 2 === 0) {
      ta = await runA();
      tb = await runB();
    } else {
      tb = await runB();
      ta = await runA();
    }
    if (i >= warmupPairs) {
      a.push(ta);
      b.push(tb);
    }
  }
  return { a, b };
}

/** Per-pair ratios a/b: above 1 means B was faster in that pair. */
export function pairRatios({ a, b }: PairedSamples): number[] {
  return a.map((ta, i) => ta / b[i]!);
}
