import type { CocoSizes } from '../data/coco/source.js';
import type { KineticsSizes } from '../data/kinetics/source.js';
import type { Scale } from '../run-config.js';

/** Sample counts per scale: quick fits CI on 2 cores and a software device; full is the article's. */
export interface ScaleSizes {
  /** Interleaved pairs timed for a speedup, after the warm-up pairs. */
  readonly pairs: number;
  readonly warmupPairs: number;
  /** Unprofiled train steps before the profiled one (pipeline compilation, pools). */
  readonly profileWarmupSteps: number;
  /** Batches each strategy sends in the memory soak (section 13). */
  readonly soakBatches: number;
}

export const SIZES: Record<Scale, ScaleSizes> = {
  // 200 pairs: with fewer, the speedup's 95% CI on lavapipe is ~19% wide and a 20% slowdown is
  // caught only 2 times in 3 (npm run perf:calibrate); 200 pairs cost ~0.2 s.
  quick: { pairs: 200, warmupPairs: 20, profileWarmupSteps: 1, soakBatches: 150 },
  full: { pairs: 1000, warmupPairs: 50, profileWarmupSteps: 3, soakBatches: 1000 },
};

/** The article's DataLoader(batch_size=64, shuffle=True). */
export const ARTICLE_BATCH = { batchSize: 64, shuffle: true, seed: 2024, dropLast: false } as const;

/** Sizes of the image (section 7) and video (section 8) scenarios of one scale (each source's own, in src/data/<name>/source.ts). */
export interface MediaSizes {
  /** COCO: images per batch, letterboxed to a square of `side` pixels. */
  readonly coco: CocoSizes;
  /** Kinetics: clips per batch of `frames` frames scaled to height x width. */
  readonly kinetics: KineticsSizes;
}
