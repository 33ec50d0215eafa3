import type { Scale } from '../run-config.js';

/** Sample counts per scale: quick fits CI on 2 cores and a software device; full is the article's. */
export interface ScaleSizes {
  /** Interleaved pairs timed for a speedup, after the warm-up pairs. */
  readonly pairs: number;
  readonly warmupPairs: number;
  /** Unprofiled train steps before the profiled one (pipeline compilation, pools). */
  readonly profileWarmupSteps: number;
}

export const SIZES: Record<Scale, ScaleSizes> = {
  // 30 pairs: the least for which a median-ratio bootstrap CI is reasonably stable.
  quick: { pairs: 30, warmupPairs: 5, profileWarmupSteps: 1 },
  full: { pairs: 200, warmupPairs: 20, profileWarmupSteps: 3 },
};

/** The article's DataLoader(batch_size=64, shuffle=True). */
export const ARTICLE_BATCH = { batchSize: 64, shuffle: true, seed: 2024, dropLast: false } as const;
