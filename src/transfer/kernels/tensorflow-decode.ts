import type * as tf from '@tensorflow/tfjs';
import { TF_HALF, TF_INT8, type TfNodeBackend, type TfOpAttr, type TfTensorMetadata } from '../../backend/tensorflow-binding.js';
import { isIdentity, isPerChannel, type ChannelNormalization, type Normalization } from '../normalization.js';
import type { PackedWireDtype } from '../wire-dtypes.js';

/**
 * Decodes wire bytes with TensorFlow ops on the tensorflow (tfjs-node-gpu) backend: the bytes
 * become a real TF_UINT8 tensor (1 byte per element, copied to GPU:0 at creation when TF uses a
 * GPU), int8 and float16 are reinterpreted with Bitcast (uint8 [..., 2] -> half drops the last
 * axis), Cast widens to float32 on the device, and Sub/RealDiv apply the normalization (per
 * channel: [C] constants, broadcast along the last axis, the channels).
 * Intermediate TF tensors are deleted; the result is a float32 tfjs tensor.
 *
 * UNVERIFIED IN CI: tfjs-node-gpu cannot be installed on these machines (its install downloads
 * libtensorflow). Written against the tfjs-node 4.22 binding source; see tensorflow-binding.ts.
 */
export function decodeOnTensorflow(
  backend: TfNodeBackend,
  bytes: Uint8Array,
  dtype: PackedWireDtype,
  shape: number[],
  n: Normalization | ChannelNormalization,
): tf.Tensor {
  const binding = backend.binding;
  const type = (name: string, value: number): TfOpAttr => ({ name, type: binding.TF_ATTR_TYPE, value });
  const owned: number[] = [];
  const run = (op: string, attrs: TfOpAttr[], inputs: number[]): TfTensorMetadata => {
    const out = binding.executeOp(op, attrs, inputs, 1)[0]!;
    owned.push(out.id);
    return out;
  };
  const constant = (value: number | readonly number[]): number => {
    const values = typeof value === 'number' ? [value] : value;
    const id = binding.createTensor(typeof value === 'number' ? [] : [values.length], binding.TF_FLOAT, Float32Array.from(values));
    owned.push(id);
    return id;
  };
  try {
    const bytesId = binding.createTensor(dtype === 'float16' ? [...shape, 2] : shape, binding.TF_UINT8, bytes);
    owned.push(bytesId);
    let decoded: Pick<TfTensorMetadata, 'id' | 'dtype'> = { id: bytesId, dtype: binding.TF_UINT8 };
    if (dtype !== 'uint8') {
      decoded = run('Bitcast', [type('T', binding.TF_UINT8), type('type', dtype === 'int8' ? TF_INT8 : TF_HALF)], [bytesId]);
    }
    let out = run(
      'Cast',
      [type('SrcT', decoded.dtype), type('DstT', binding.TF_FLOAT), { name: 'Truncate', type: binding.TF_ATTR_BOOL, value: false }],
      [decoded.id],
    );
    if (isPerChannel(n) || !isIdentity(n)) {
      const centred = run('Sub', [type('T', binding.TF_FLOAT)], [out.id, constant(n.mean)]);
      out = run('RealDiv', [type('T', binding.TF_FLOAT)], [centred.id, constant(n.std)]);
    }
    owned.splice(owned.indexOf(out.id), 1); // the tfjs tensor takes over this handle
    return backend.createOutputTensor(out);
  } finally {
    for (const id of owned) binding.deleteTensor(id);
  }
}
