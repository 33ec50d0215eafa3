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

/** Sizes of the image (section 7) and video (section 8) scenarios per scale. */
export interface MediaSizes {
  /** COCO: images per batch, letterboxed to a square of `side` pixels. */
  readonly coco: { readonly batch: number; readonly side: number; readonly rounds: number; readonly warmupRounds: number; readonly trainBatch: number };
  /** Kinetics: clips per batch of `frames` frames scaled to height x width. */
  readonly kinetics: {
    readonly batch: number;
    readonly frames: number;
    readonly height: number;
    readonly width: number;
    readonly rounds: number;
    readonly warmupRounds: number;
    readonly trainBatch: number;
  };
}

/**
 * The article's batch sizes (16 images, 8 clips of 32 frames) at both scales; quick shrinks the
 * pixels so that CI on 2 cores and a software device stays fast: 128x128 images and 56x56
 * frames (a quick clip batch is 2.4 MB of uint8), full uses 480x480 images and 112x112 frames.
 * The train steps take the first `trainBatch` items: at quick scale a profiled step of the FCN on
 * 16 images took ~50 s on lavapipe (each kernel in its own pass), so quick trains on 2 images.
 */
export const MEDIA_SIZES: Record<Scale, MediaSizes> = {
  quick: {
    coco: { batch: 16, side: 128, rounds: 20, warmupRounds: 3, trainBatch: 2 },
    kinetics: { batch: 8, frames: 32, height: 56, width: 56, rounds: 8, warmupRounds: 2, trainBatch: 1 },
  },
  full: {
    coco: { batch: 16, side: 480, rounds: 100, warmupRounds: 10, trainBatch: 16 },
    kinetics: { batch: 8, frames: 32, height: 112, width: 112, rounds: 40, warmupRounds: 5, trainBatch: 8 },
  },
};
