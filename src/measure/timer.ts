import type * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../backend/types.js';

/** Which clock the harness's timings read, said in every figure's detail. */
export const CLOCK = 'host monotonic clock (performance.now), stopped after a device sync';

/**
 * Times `work` from the host's point of view until its output exists on the device: the clock
 * stops only after `context.sync` (submit + wait on webgpu), so it never times mere enqueueing.
 * The output is disposed after the clock stops.
 */
export async function timeSynced(context: BackendContext, work: () => tf.Tensor): Promise<number> {
  const start = performance.now();
  const output = work();
  await context.sync(output);
  const elapsed = performance.now() - start;
  output.dispose();
  return elapsed;
}
