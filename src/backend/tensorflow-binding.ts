import type * as tf from '@tensorflow/tfjs-core';

// The parts of @tensorflow/tfjs-node-gpu 4.22 the harness calls, typed here because the package
// is an optional peer that is never installed in CI. Written against its published source
// (src/tfjs_binding.ts, src/nodejs_kernel_backend.ts, binding/tfjs_backend.cc of 4.22.0) and
// type-checked against its dist/*.d.ts once; NOT exercised at run time on these machines.

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
  readonly TF_FLOAT: number;
  readonly TF_INT32: number;
  readonly TF_STRING: number;
  readonly TF_UINT8: number;
  readonly TF_ATTR_BOOL: number;
  readonly TF_ATTR_TYPE: number;
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
