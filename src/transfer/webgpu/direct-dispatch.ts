import * as tf from '@tensorflow/tfjs';

/**
 * The parts of tfjs-backend-webgpu 4.22's WebGPUBackend (dist/tf-backend-webgpu.node.js) a
 * direct dispatch relies on. All but `device`, `ensureCommandEncoderReady`,
 * `endComputePassEncoder`, `submitQueue`, `uploadToGPU` and `makeTensorInfo` are internal
 * fields; runWebGPUProgram / recordAndSubmit use them the same way.
 */
interface WebGpuBackendInternals {
  readonly device: GPUDevice;
  readonly commandEncoder: GPUCommandEncoder | null;
  computePassEncoder: GPUComputePassEncoder | null;
  dispatchCountInPass: number;
  readonly commandQueueOwnedIds: WeakSet<object>;
  /** Non-null while tf.profile / tf.time collects per-program timestamps. */
  readonly activeTimers: unknown[] | null | undefined;
  readonly tensorMap: { get(dataId: object): { resource?: unknown } | undefined };
  ensureCommandEncoderReady(): void;
  endComputePassEncoder(): void;
  submitQueue(): void;
  uploadToGPU(dataId: object): void;
  makeTensorInfo(shape: number[], dtype: 'float32'): tf.TensorInfo;
}

/**
 * A compute shader that reads one storage buffer (bound twice, read-only, for two views of it)
 * and writes one, and takes no uniforms: it
 * bounds itself by the output buffer's length (arrayLength), which is exact because tfjs's
 * pool creates buffers of exactly the requested size (checked on every run).
 */
export interface DirectProgram {
  /** Identifies the shader code (and its workgroup size): the pipeline cache key. */
  readonly key: string;
  /** A complete WGSL module: binding 0 the output, 1 and 2 the input (two read-only views); entry point `_start` (built only on a pipeline cache miss). */
  code(): string;
  readonly workgroups: number;
}

interface Pipeline {
  readonly pipeline: GPUComputePipeline;
  readonly layout: GPUBindGroupLayout;
}

interface BoundGroup {
  readonly pipeline: GPUComputePipeline;
  readonly input: GPUBuffer;
  readonly group: GPUBindGroup;
}

/**
 * Records a compute dispatch straight into tfjs's own command encoder, without tfjs's
 * per-dispatch machinery (a uniform buffer written per dispatch, a shader key built from
 * strings, a new bind group), which costs about 0.07 ms of host time per dispatch on a 2-core
 * machine: pipelines and bind groups are created once and reused (tfjs's pool hands the same
 * output buffers back, so bind groups hit), and there are no uniforms to write.
 *
 * It keeps tfjs's invariants: the dispatch goes into the backend's open compute pass, in
 * order with the dispatches tfjs records; input and output are marked as owned by the
 * pending command queue (a disposed tensor's buffer is released only after submit); the
 * deferred-submit batch size is honoured. It declines (returns null) while tfjs collects
 * timestamps (tf.profile, tf.time), so profiles time the same shader through
 * runWebGPUProgram, and for dispatches larger than one dimension allows.
 */
export class DirectDispatcher {
  private readonly pipelines = new Map<string, Pipeline>();
  private readonly groups = new WeakMap<GPUBuffer, BoundGroup>();

  private constructor(private readonly backend: WebGpuBackendInternals) {}

  private static readonly perBackend = new WeakMap<object, DirectDispatcher>();

  /** The dispatcher of a webgpu backend. */
  static of(backend: object): DirectDispatcher {
    let dispatcher = DirectDispatcher.perBackend.get(backend);
    if (!dispatcher) {
      dispatcher = new DirectDispatcher(backend as WebGpuBackendInternals);
      DirectDispatcher.perBackend.set(backend, dispatcher);
    }
    return dispatcher;
  }

  /** Whether a direct dispatch of `workgroups` is possible now (else use runWebGPUProgram). */
  canRun(workgroups: number): boolean {
    return (
      this.backend.activeTimers == null &&
      !tf.env().getBool('WEBGPU_ENGINE_COMPILE_ONLY') &&
      workgroups >= 1 &&
      workgroups <= this.backend.device.limits.maxComputeWorkgroupsPerDimension
    );
  }

  /**
   * Runs `program` on `input` (an int32 or float32 tensor) into a new float32 tensor of
   * `outputShape` from tfjs's buffer pool, recorded in tfjs's command stream. Check canRun first.
   */
  run(program: DirectProgram, input: tf.TensorInfo, outputShape: number[]): tf.TensorInfo {
    const backend = this.backend;
    const output = backend.makeTensorInfo(outputShape, 'float32');
    backend.uploadToGPU(output.dataId); // a pooled buffer, no data
    backend.uploadToGPU(input.dataId); // no-op when already on the device
    const outBuffer = this.bufferOf(output);
    const inBuffer = this.bufferOf(input);
    if (outBuffer.size !== tf.util.sizeFromShape(outputShape) * 4) {
      throw new Error(
        `direct dispatch: tfjs gave a ${outBuffer.size}-byte buffer for a float32 [${outputShape.join(', ')}] output (the shader bounds itself by it)`,
      );
    }
    const { pipeline, layout } = this.pipeline(program);
    let bound = this.groups.get(outBuffer);
    if (!bound || bound.pipeline !== pipeline || bound.input !== inBuffer) {
      const group = backend.device.createBindGroup({
        layout,
        entries: [outBuffer, inBuffer, inBuffer].map((buffer, binding) => ({ binding, resource: { buffer } })),
      });
      bound = { pipeline, input: inBuffer, group };
      this.groups.set(outBuffer, bound);
    }
    backend.commandQueueOwnedIds.add(input.dataId);
    backend.commandQueueOwnedIds.add(output.dataId);
    backend.ensureCommandEncoderReady();
    backend.computePassEncoder ??= backend.commandEncoder!.beginComputePass();
    const pass = backend.computePassEncoder;
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bound.group);
    pass.dispatchWorkgroups(program.workgroups);
    backend.dispatchCountInPass++;
    if ((tf.env().get('WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE') as number) <= backend.dispatchCountInPass) {
      backend.endComputePassEncoder();
      backend.submitQueue();
    }
    return output;
  }

  private bufferOf(info: tf.TensorInfo): GPUBuffer {
    const resource = this.backend.tensorMap.get(info.dataId)?.resource;
    if (!(resource instanceof GPUBuffer)) throw new Error('direct dispatch needs tensors stored in GPU buffers');
    return resource;
  }

  private pipeline(program: DirectProgram): Pipeline {
    let entry = this.pipelines.get(program.key);
    if (!entry) {
      const device = this.backend.device;
      const pipeline = device.createComputePipeline({
        layout: 'auto',
        compute: { module: device.createShaderModule({ code: program.code() }), entryPoint: '_start' },
      });
      entry = { pipeline, layout: pipeline.getBindGroupLayout(0) };
      this.pipelines.set(program.key, entry);
    }
    return entry;
  }
}
