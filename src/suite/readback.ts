import { countSynced } from '../backend/synced-transfers.js';
import type { TransferTotals } from '../backend/transfer-counter.js';
import type { BackendContext } from '../backend/types.js';
import * as tf from '@tensorflow/tfjs';
import { IDENTITY_NORMALIZATION, type Normalization } from '../transfer/normalization.js';
import { NORMALIZE_PACKED_BYTES, type NormalizePackedAttrs } from '../transfer/kernels/normalize-packed-kernel.js';
import type { Payload } from '../transfer/wire/payload.js';
import { sendPayload } from '../transfer/strategies/send-payload.js';
import type { PackedWireDtype } from '../transfer/wire-dtypes.js';

/** A tensor produced on the device, read back, with the traffic that produced it. */
export interface Readback {
  readonly bytes: TransferTotals;
  readonly values: Float32Array;
  readonly shape: number[];
}

/** Runs `produce`, counts its host->device traffic until the device is done, reads the result back and disposes it. */
export async function countAndRead(context: BackendContext, produce: () => tf.Tensor): Promise<Readback> {
  const { result: tensor, bytes } = await countSynced(context, produce);
  const values = (await tensor.data()) as Float32Array;
  const shape = tensor.shape;
  tensor.dispose();
  return { bytes, values, shape };
}

/** Sends a payload, counting the traffic until the device is done, and reads the decoded tensor back. */
export function sendAndRead(context: BackendContext, payload: Payload, n: Normalization = IDENTITY_NORMALIZATION): Promise<Readback> {
  return countAndRead(context, () => sendPayload(context, payload, n));
}

/** Runs the decode kernel on hand-made words (e.g. with garbage in the padding) and reads the result. */
export async function decodeWords(words: Int32Array, wire: PackedWireDtype, shape: number[], n: Normalization = IDENTITY_NORMALIZATION): Promise<Float32Array> {
  const packed = tf.tensor1d(words, 'int32');
  const attrs: NormalizePackedAttrs = { shape, wire, mean: n.mean, std: n.std };
  const out = tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
  packed.dispose();
  const values = (await out.data()) as Float32Array;
  out.dispose();
  return values;
}
