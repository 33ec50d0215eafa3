import type * as tf from '@tensorflow/tfjs-core';
import { countTransfers, type TransferTotals } from './transfer-counter.js';
import type { BackendContext } from './types.js';

/** Runs `produce` and returns its tensor with the host->device traffic it caused until the device finished it (the caller disposes the tensor). */
export function countSynced<T extends tf.Tensor>(context: BackendContext, produce: () => T): Promise<{ result: T; bytes: TransferTotals }> {
  return countTransfers(context.transfers, async () => {
    const out = produce();
    await context.sync(out);
    return out;
  });
}

/** The host->device traffic of producing one tensor, counted until the device finished it; the tensor is disposed. */
export async function bytesOfSynced(context: BackendContext, produce: () => tf.Tensor): Promise<TransferTotals> {
  const { result, bytes } = await countSynced(context, produce);
  result.dispose();
  return bytes;
}
