/**
 * Reference compute shaders that bound what a transfer kernel can reach on a device: they move
 * bytes and do nothing else. Run outside tfjs (RawDispatch), so the time is the device's.
 * Both bind the output at 0 and one read-only input at 1, and bound themselves by the
 * output's length, so one pipeline serves every size.
 */

/** Invocations per workgroup and 16-byte words per invocation, as the vec4 programs use (256, 4). */
const WORKGROUP = 256;
const PER_INVOCATION = 4;

/** Workgroups either shader needs for an output of `outputBytes` (a multiple of 64). */
export function referenceWorkgroups(outputBytes: number): number {
  return Math.ceil(outputBytes / (16 * PER_INVOCATION) / WORKGROUP);
}

/** A plain copy, 16-byte loads and stores, 4 per invocation: `outputBytes` read and written. */
export const COPY_SHADER = `
  @group(0) @binding(0) var<storage, read_write> result : array<vec4<u32>>;
  @group(0) @binding(1) var<storage, read> source : array<vec4<u32>>;
  @compute @workgroup_size(${WORKGROUP}) fn _start(@builtin(global_invocation_id) id : vec3<u32>) {
    let i = id.x * ${PER_INVOCATION}u;
    if (i + ${PER_INVOCATION - 1}u >= arrayLength(&result)) { return; }
    ${Array.from({ length: PER_INVOCATION }, (_, k) => `result[i + ${k}u] = source[i + ${k}u];`).join('\n    ')}
  }`;

/**
 * The same bytes as a uint8 -> float32 kernel with no arithmetic: each invocation reads one
 * 16-byte word of the input and writes each of its 4 words into its own 16 output bytes
 * (the kernel's 1 byte read and 4 bytes written per element, nothing computed).
 */
export const EXPAND_COPY_SHADER = `
  @group(0) @binding(0) var<storage, read_write> result : array<vec4<u32>>;
  @group(0) @binding(1) var<storage, read> source : array<vec4<u32>>;
  @compute @workgroup_size(${WORKGROUP}) fn _start(@builtin(global_invocation_id) id : vec3<u32>) {
    let i = id.x;
    if (4u * i + 3u >= arrayLength(&result)) { return; }
    let q = source[i];
    ${[0, 1, 2, 3].map((k) => `result[4u * i + ${k}u] = vec4<u32>(q[${k}]);`).join('\n    ')}
  }`;

/** One compute pipeline with its bind group, dispatched and timed by itself (its own submit, then a wait). */
export class RawDispatch {
  private readonly pipeline: GPUComputePipeline;
  private readonly group: GPUBindGroup;

  constructor(
    private readonly device: GPUDevice,
    code: string,
    buffers: readonly GPUBuffer[],
    private readonly workgroups: number,
  ) {
    this.pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: '_start' } });
    this.group = device.createBindGroup({
      layout: this.pipeline.getBindGroupLayout(0),
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  /** Milliseconds from encoding one dispatch to the queue reporting it done (host clock). */
  async time(): Promise<number> {
    const start = performance.now();
    const encoder = this.device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.group);
    pass.dispatchWorkgroups(this.workgroups);
    pass.end();
    this.device.queue.submit([encoder.finish()]);
    await this.device.queue.onSubmittedWorkDone();
    return performance.now() - start;
  }
}
