import type * as tf from '@tensorflow/tfjs-core';

// The parts of tfjs-node 4.22's binding the harness calls (@tensorflow/tfjs-node and
// @tensorflow/tfjs-node-gpu carry the same one), typed here because neither package is a
// dependency the type check can see. Written against its published source (src/tfjs_binding.ts,
// src/nodejs_kernel_backend.ts, binding/tfjs_backend.cc of 4.22.0) and run for real on
// @tensorflow/tfjs-node over TensorFlow 2.21's C library (npm run setup:tensorflow).

/** What the native binding returns for a tensor handle. */
export interface TfTensorMetadata {
  id: number;
  shape: number[];
  dtype: number;
}

/** One op attribute (TFEOpAttr). */
export interface TfOpAttr {
  name: string;
  type: number;
  value: boolean | number | object | string | number[];
}

/** The native binding (TFJSBinding), the members used here. */
export interface TfBinding {
  /** Makes a TF tensor that shares the typed array's memory; non-int32 tensors are copied to GPU:0 when TF uses a GPU (tfjs_backend.cc CreateTensor). */
  createTensor(shape: number[], dtype: number, buffer: tf.backend_util.BackendValues): number;
  deleteTensor(tensorId: number): void;
  tensorDataSync(tensorId: number): Float32Array | Int32Array | Uint8Array;
  executeOp(opName: string, opAttrs: TfOpAttr[], inputTensorIds: number[], numOutputs: number): TfTensorMetadata[];
  isUsingGpuDevice(): boolean;
  /** TensorFlow's version, from the C library's TF_Version() (tfjs_binding.cc). */
  readonly TF_Version: string;
  readonly TF_FLOAT: number;
  readonly TF_INT32: number;
  readonly TF_STRING: number;
  readonly TF_UINT8: number;
  readonly TF_ATTR_BOOL: number;
  readonly TF_ATTR_INT: number;
  readonly TF_ATTR_TYPE: number;
}

/** What NodeJSKernelBackend keeps per tensor (its private tensorMap): the host values until the tensor reaches TensorFlow, then its handle. */
export interface TfTensorEntry {
  /** The TF tensor handle; set once the tensor has reached TensorFlow. */
  id?: number;
  /** TF_DataType of the handle (a TF_UINT8 handle shows in tfjs as int32, as tfjs-node's image decoders do). */
  dtype: number;
  shape: number[];
  /** The host values while they have not been handed to TensorFlow; null after. */
  values: tf.backend_util.BackendValues | null;
}

/**
 * NodeJSKernelBackend, the members used here. `createOutputTensor` and `getInputTensorIds` are
 * private in its TypeScript source but plain methods at run time; tfjs-node itself pairs
 * binding.createTensor + executeOp + createOutputTensor for uint8 image data (executeEncodeImageOp).
 */
export interface TfNodeBackend extends tf.KernelBackend {
  binding: TfBinding;
  readonly isUsingGpuDevice: boolean;
  /** Host values while the tensor has not reached TensorFlow yet, else a copy read back from it. */
  readSync(dataId: tf.DataId): tf.backend_util.BackendValues;
  /** Wraps a TF tensor handle as a tfjs tensor (float32 for TF_FLOAT); the tensor owns the handle. */
  createOutputTensor(metadata: TfTensorMetadata): tf.Tensor;
  /** Its tensors by data id (private in the TypeScript source, a plain field at run time). */
  readonly tensorMap: { get(dataId: tf.DataId): TfTensorEntry | undefined };
  /** Creates the TF tensors of tensors whose values are still on the host, returning their handles. */
  getInputTensorIds(tensors: tf.TensorInfo[]): number[];
}

// TensorFlow C API dtype enums the binding does not export (tensorflow/c/tf_datatype.h:
// TF_FLOAT = 1, TF_UINT8 = 4, TF_INT8 = 6, TF_HALF = 19). The binding passes type attributes
// through as integers (TFE_OpSetAttrType), so these reach the ops unchanged.
/** TF_DataType of signed bytes. */
export const TF_INT8 = 6;
/** TF_DataType of IEEE 754 half precision. */
export const TF_HALF = 19;
