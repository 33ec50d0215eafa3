import type * as tf from '@tensorflow/tfjs';
import { countTransfers, type TransferTotals } from '../backend/transfer-counter.js';
import type { BackendContext } from '../backend/types.js';

/** A tensor produced on the device, read back, with the traffic that produced it. */
export interface Readback {
  readonly bytes: TransferTotals;
  readonly values: Float32Array;
  readonly shape: number[];
}

/** Runs `produce`, counts its host->device traffic until the device is done, reads the result back and disposes it. */
export async function countAndRead(context: BackendContext, produce: () => tf.Tensor): Promise<Readback> {
  const { result: tensor, bytes } = await countTransfers(context.transfers, async () => {
    const out = produce();
    await context.sync(out);
    return out;
  });
  const values = (await tensor.data()) as Float32Array;
  const shape = tensor.shape;
  tensor.dispose();
  return { bytes, values, shape };
}
