import * as tf from '@tensorflow/tfjs';

/** tf.memory() fields the harness reads; numBytesInGPU exists on webgpu only. */
export interface MemorySnapshot {
  readonly numTensors: number;
  readonly numBytes: number;
  readonly numBytesInGPU: number | null;
}

/** Reads tfjs's memory accounting now. */
export function memorySnapshot(): MemorySnapshot {
  const m = tf.memory() as tf.MemoryInfo & { numBytesInGPU?: number };
  return { numTensors: m.numTensors, numBytes: m.numBytes, numBytesInGPU: m.numBytesInGPU ?? null };
}

/** Tracks tensors alive since construction: what a scenario left behind. */
export class LeakCheck {
  private readonly start = memorySnapshot();
  /** Tensors created since the check began and not disposed. */
  leakedTensors(): number {
    return memorySnapshot().numTensors - this.start.numTensors;
  }
}
