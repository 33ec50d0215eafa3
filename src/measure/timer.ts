import type * as tf from '@tensorflow/tfjs';
import { onDevice } from '../backend/synced-transfers.js';
import type { BackendContext } from '../backend/types.js';

/**
 * Which clock the harness's timings read, said in every figure's detail (report/charts.ts reads
 * it back). "After a device sync" includes the upload: the sync follows makeResident.
 */
export const CLOCK = 'host monotonic clock (performance.now), stopped after a device sync';

/**
 * Times `work` from the host's point of view until its output exists on the device: the clock
 * stops only after the output was uploaded (webgpu uploads a host tensor lazily, on first use:
 * `tf.tensor(values)` alone moves nothing) and `context.sync` waited for it (submit + wait on
 * webgpu), so it never times mere enqueueing nor a reference to a host array. `work` may produce
 * its tensor asynchronously (a tf.data pipeline); the clock then runs until it resolves and the
 * device has it. An output made from a host array that crossed 0 B is an error
 * (DeviceSkippedError), not a figure. The output is disposed after the clock stops.
 */
export async function timeSynced(context: BackendContext, work: () => tf.Tensor | Promise<tf.Tensor>): Promise<number> {
  const { result, ms } = await onDevice(context, 'timeSynced', work);
  result.dispose();
  return ms;
}
