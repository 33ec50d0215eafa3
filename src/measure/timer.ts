import type * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../backend/types.js';

/** Which clock the harness's timings read, said in every figure's detail. */
export const CLOCK = 'host monotonic clock (performance.now), stopped after a device sync';

/**
 * Times `work` from the host's point of view until its output exists on the device: the clock
 * stops only after `context.sync` (submit + wait on webgpu), so it never times mere enqueueing.
 * `work` may produce its tensor asynchronously (a tf.data pipeline); the clock then runs until
 * it resolves and the device has it. The output is disposed after the clock stops.
 */
export async function timeSynced(context: BackendContext, work: () => tf.Tensor | Promise<tf.Tensor>): Promise<number> {
  const start = performance.now();
  const produced = work();
  // Synchronous work is not awaited: no extra microtask inside the timed span.
  const output = produced instanceof Promise ? await produced : produced;
  await context.sync(output);
  const elapsed = performance.now() - start;
  output.dispose();
  return elapsed;
}
