import { timeHostCopy } from '../measure/host-copy.js';
import { bandwidthFigure, sizeId, sizeLabel } from './measurements.js';
import type { Figure } from './schema.js';

/**
 * The host's own memory copy bandwidth as a doctor figure (`host-copy.<size>`): measure/host-copy.ts
 * times it (one thread per allowed CPU, STREAM Copy's way), this says it as bytes per second.
 */
export async function measureHostCopy(bytes: number, reps: number, threads?: number): Promise<Figure> {
  const { times, threads: used } = await timeHostCopy(bytes, reps, threads);
  return bandwidthFigure(
    sizeId('host-copy', bytes),
    `host memory copy ${sizeLabel(bytes)}`,
    bytes,
    times,
    `TypedArray.set (memcpy) between two host buffers, ${used} thread${used > 1 ? 's' : ''} (one per allowed CPU), each its slice; bytes copied per second`,
    'host monotonic clock (performance.now) from the start message to the last thread done: no device involved, nothing to sync',
  );
}
