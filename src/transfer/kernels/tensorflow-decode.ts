import type * as tf from '@tensorflow/tfjs';
import { TF_HALF, TF_INT8, type TfNodeBackend, type TfOpAttr, type TfTensorMetadata } from '../../backend/tensorflow-binding.js';
import { isIdentity, isPerChannel, type ChannelNormalization, type Normalization } from '../normalization.js';
import { packBytes, unpackedView } from '../wire/packed-bytes.js';
import type { PackedWireDtype } from '../wire-dtypes.js';
import type { CropMirrorNormalizeGeometry } from './crop-mirror-normalize.js';

// The tensorflow backend's kernels for packed payloads, run on TensorFlow's own ops through the
// tfjs-node binding (executeOp): run for real on tfjs-node 4.22 over TensorFlow 2.21's C library
// on the CPU device (npm run setup:tensorflow). On a CUDA build (tfjs-node-gpu) every non-int32
// tensor created through the binding is copied to GPU:0 and the ops run there: UNVERIFIED, no
// GPU build of TensorFlow can be installed or run on these machines.

/**
 * TensorFlow ops on the binding, with every intermediate handle owned until `output` (the one
 * handed to tfjs) or `dispose` (the rest deleted).
 */
class TfOps {
  private readonly owned: number[] = [];
  constructor(readonly backend: TfNodeBackend) {}

  private get binding() {
    return this.backend.binding;
  }

  /** A type attribute. */
  type(name: string, value: number): TfOpAttr {
    return { name, type: this.binding.TF_ATTR_TYPE, value };
  }

  /** Runs one op of one output; the output is owned. */
  run(op: string, attrs: TfOpAttr[], inputs: number[]): TfTensorMetadata {
    const out = this.binding.executeOp(op, attrs, inputs, 1)[0]!;
    this.owned.push(out.id);
    return out;
  }

  /** A tensor made from host values through the binding (what the transfer counter sees); owned. */
  create(shape: number[], dtype: number, values: tf.backend_util.BackendValues): number {
    const id = this.binding.createTensor(shape, dtype, values);
    this.owned.push(id);
    return id;
  }

  /** An int32 vector (a shape, begin, size, axis or permutation): a parameter TensorFlow keeps in host memory. */
  ints(values: readonly number[]): number {
    return this.create([values.length], this.binding.TF_INT32, Int32Array.from(values));
  }

  /**
   * A normalization constant: a float32 scalar, or one per channel built on the device from one
   * scalar per channel (Pack), so that the constants reach TensorFlow as the parameters they are
   * (scalars: counted apart from data, like WebGPU uniforms) whatever the number of channels.
   */
  constant(value: number | readonly number[]): number {
    const F = this.binding.TF_FLOAT;
    if (typeof value === 'number') return this.create([], F, Float32Array.of(value));
    const scalars = value.map((v) => this.create([], F, Float32Array.of(v)));
    return this.run(
      'Pack',
      [{ name: 'N', type: this.binding.TF_ATTR_INT, value: scalars.length }, this.type('T', F), { name: 'axis', type: this.binding.TF_ATTR_INT, value: 0 }],
      scalars,
    ).id;
  }

  /**
   * The first `byteCount` bytes of packed int32 words as a TF_UINT8 tensor of `shape`:
   * - words whose values are still on the host (tfjs-node creates a tensor's TF tensor on first
   *   use): only the payload bytes are handed to TensorFlow, unpadded, as one TF_UINT8 tensor;
   * - words already in TensorFlow (made resident by residentWordsOnTensorflow, or by an upload):
   *   reinterpreted in place by Bitcast and cut to the payload, nothing crossing from the host
   *   but the int32 shape parameters.
   */
  bytesOf(packed: tf.TensorInfo, byteCount: number, shape: number[]): number {
    const b = this.binding;
    const entry = this.backend.tensorMap.get(packed.dataId);
    if (!entry) throw new Error('the packed words are not a tensor of the tensorflow backend');
    if (entry.values != null) return this.create(shape, b.TF_UINT8, unpackedView(entry.values as Int32Array, byteCount));
    if (entry.id === undefined) throw new Error('the packed words have neither host values nor a TensorFlow handle');
    const u8 = this.type('T', b.TF_UINT8);
    const words = this.run('Bitcast', [this.type('T', b.TF_INT32), this.type('type', b.TF_UINT8)], [entry.id]); // [words, 4]
    let flat = this.run('Reshape', [u8, this.type('Tshape', b.TF_INT32)], [words.id, this.ints([-1])]);
    if (byteCount < words.shape.reduce((a, c) => a * c, 1)) {
      flat = this.run('Slice', [u8, this.type('Index', b.TF_INT32)], [flat.id, this.ints([0]), this.ints([byteCount])]);
    }
    return this.run('Reshape', [u8, this.type('Tshape', b.TF_INT32)], [flat.id, this.ints(shape)]).id;
  }

  /** Hands `out` to tfjs (the tfjs tensor takes over the handle). */
  output(out: TfTensorMetadata): tf.Tensor {
    this.owned.splice(this.owned.indexOf(out.id), 1);
    return this.backend.createOutputTensor(out);
  }

  /** Deletes every handle still owned. */
  dispose(): void {
    for (const id of this.owned) this.binding.deleteTensor(id);
    this.owned.length = 0;
  }
}

/**
 * Decodes packed words with TensorFlow ops on the tensorflow backend: the payload's bytes become a
 * real TF_UINT8 tensor (TfOps.bytesOf: 1 byte per element, unpadded, from the host; or the
 * resident words reinterpreted), int8 and float16 are reinterpreted with Bitcast (uint8
 * [..., 2] -> half drops the last axis), Cast widens to float32, and Sub/RealDiv apply the
 * normalization (per channel: [C] constants, broadcast along the last axis, the channels).
 * Intermediate TF tensors are deleted; the result is a float32 tfjs tensor.
 */
export function decodeOnTensorflow(
  backend: TfNodeBackend,
  packed: tf.TensorInfo,
  byteCount: number,
  dtype: PackedWireDtype,
  shape: number[],
  n: Normalization | ChannelNormalization,
): tf.Tensor {
  const ops = new TfOps(backend);
  const b = backend.binding;
  try {
    const bytesId = ops.bytesOf(packed, byteCount, dtype === 'float16' ? [...shape, 2] : shape);
    let decoded: Pick<TfTensorMetadata, 'id' | 'dtype'> = { id: bytesId, dtype: b.TF_UINT8 };
    if (dtype !== 'uint8') {
      decoded = ops.run('Bitcast', [ops.type('T', b.TF_UINT8), ops.type('type', dtype === 'int8' ? TF_INT8 : TF_HALF)], [bytesId]);
    }
    let out = ops.run(
      'Cast',
      [ops.type('SrcT', decoded.dtype), ops.type('DstT', b.TF_FLOAT), { name: 'Truncate', type: b.TF_ATTR_BOOL, value: false }],
      [decoded.id],
    );
    if (isPerChannel(n) || !isIdentity(n)) {
      const centred = ops.run('Sub', [ops.type('T', b.TF_FLOAT)], [out.id, ops.constant(n.mean)]);
      out = ops.run('RealDiv', [ops.type('T', b.TF_FLOAT)], [centred.id, ops.constant(n.std)]);
    }
    return ops.output(out);
  } finally {
    ops.dispose();
  }
}

/**
 * Crop-mirror-normalize with TensorFlow ops on the tensorflow backend, from packed uint8 pixels:
 * the pixel bytes as one TF_UINT8 tensor [frames, H, W, C] (TfOps.bytesOf), then Slice (the
 * crop) and ReverseV2 (the mirror) on the bytes, Cast to float32, Sub/RealDiv per channel,
 * Transpose to channels first where asked, Reshape to the output shape. The same computation as
 * the CPU reference, in float32 (mean and std rounded once, then a subtraction and a division).
 */
export function cropMirrorNormalizeOnTensorflow(backend: TfNodeBackend, pixels: tf.TensorInfo, g: CropMirrorNormalizeGeometry): tf.Tensor {
  const ops = new TfOps(backend);
  const b = backend.binding;
  const { frames, inHeight, inWidth, channels: C, crop } = g;
  try {
    const u8 = ops.type('T', b.TF_UINT8);
    let x = ops.bytesOf(pixels, g.inputSize, [frames, inHeight, inWidth, C]);
    if (crop.y !== 0 || crop.x !== 0 || crop.height !== inHeight || crop.width !== inWidth) {
      x = ops.run('Slice', [u8, ops.type('Index', b.TF_INT32)], [x, ops.ints([0, crop.y, crop.x, 0]), ops.ints([frames, crop.height, crop.width, C])]).id;
    }
    if (g.mirror) x = ops.run('ReverseV2', [u8, ops.type('Tidx', b.TF_INT32)], [x, ops.ints([2])]).id;
    const f32 = ops.type('T', b.TF_FLOAT);
    let out = ops.run('Cast', [ops.type('SrcT', b.TF_UINT8), ops.type('DstT', b.TF_FLOAT), { name: 'Truncate', type: b.TF_ATTR_BOOL, value: false }], [x]);
    out = ops.run('Sub', [f32], [out.id, ops.constant(g.mean)]);
    out = ops.run('RealDiv', [f32], [out.id, ops.constant(g.std)]);
    if (g.layout === 'CHW') out = ops.run('Transpose', [f32, ops.type('Tperm', b.TF_INT32)], [out.id, ops.ints([0, 3, 1, 2])]);
    out = ops.run('Reshape', [f32, ops.type('Tshape', b.TF_INT32)], [out.id, ops.ints(g.outputShape)]);
    return ops.output(out);
  } finally {
    ops.dispose();
  }
}

/**
 * Packed payload bytes made resident in TensorFlow as the int32 words tfjs sees: one TF_UINT8
 * tensor [words, 4] (the bytes padded to whole 32-bit words, as every backend's words are)
 * created through the binding, where the transfer counter counts it as data, then Bitcast on the
 * device to int32 [words]. An int32 tensor made from the host would be a parameter TensorFlow
 * keeps in host memory, not data on its device. The kernels read these words back as bytes in
 * place (TfOps.bytesOf). The caller disposes the tensor.
 */
export function residentWordsOnTensorflow(backend: TfNodeBackend, values: Uint8Array | Int8Array | Uint16Array): tf.Tensor {
  const ops = new TfOps(backend);
  const b = backend.binding;
  try {
    const { words } = packBytes(values);
    const bytes = ops.create([words.length, 4], b.TF_UINT8, unpackedView(words, words.byteLength));
    return ops.output(ops.run('Bitcast', [ops.type('T', b.TF_UINT8), ops.type('type', b.TF_INT32)], [bytes]));
  } finally {
    ops.dispose();
  }
}
