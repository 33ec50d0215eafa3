import * as tf from '@tensorflow/tfjs';
import { makeResident } from './synced-transfers.js';
import type { BackendContext } from './types.js';
import type { WebGpuBackendInternals } from './webgpu.js';

/**
 * The raw transfers doctor times, each returning the milliseconds of every timed repetition
 * (host monotonic clock, stopped only after the device finished). Warm-up repetitions run
 * first and are not returned.
 */
export interface DeviceOps {
  /** Where the bytes cross, in words, for the figures' detail. */
  readonly uploadPath: string;
  readonly readbackPath: string;
  /** Null where the backend has no device memory of its own to copy within. */
  readonly copyPath: string | null;
  /** Null where the backend runs no shaders of the harness's own. */
  readonly shaderCopyPath: string | null;
  upload(host: Uint8Array<ArrayBuffer>, warmup: number, reps: number): Promise<number[]>;
  readback(size: number, warmup: number, reps: number): Promise<number[]>;
  copy(size: number, warmup: number, reps: number): Promise<number[]>;
  /** A compute shader copying `size` bytes (a multiple of 64) between two device buffers. */
  shaderCopy(size: number, warmup: number, reps: number): Promise<number[]>;
}

/**
 * The shader copy: four 16-byte loads and stores per invocation, workgroup 256. Of 1, 4 and 8
 * words per invocation, contiguous or strided, workgroups of 64 and 256, this was the fastest on
 * lavapipe (4.5 GB/s read + written against 3.3 GB/s for one word per invocation, 16 MiB), so a
 * kernel's throughput is set against the device's best plain shader copy, not a slow one.
 */
const SHADER_COPY_WORDS = 4;
const SHADER_COPY_WGSL = `
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = (id.x + id.y * groups.x * 256u) * 4u;
  if (i + 3u < arrayLength(&dst)) {
    dst[i] = src[i];
    dst[i + 1u] = src[i + 1u];
    dst[i + 2u] = src[i + 2u];
    dst[i + 3u] = src[i + 3u];
  }
}`;
const SHADER_COPY_WORKGROUP = 256;
const MAX_WORKGROUPS_PER_DIMENSION = 65535;

/** Runs `once` warmup + reps times, returning the timed ones. */
async function repeat(warmup: number, reps: number, once: () => Promise<number>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < warmup + reps; i++) {
    const ms = await once();
    if (i >= warmup) times.push(ms);
  }
  return times;
}

/**
 * The shader copy of `size` bytes from `source` to `target` (storage buffers of at least that
 * size), built once: each call encodes and submits one pass. The caller waits for the queue.
 */
export function shaderCopier(device: GPUDevice, source: GPUBuffer, target: GPUBuffer, size: number): () => void {
  const bytesPerInvocation = 16 * SHADER_COPY_WORDS;
  if (size % bytesPerInvocation !== 0) throw new RangeError(`the shader copy moves ${bytesPerInvocation} B per invocation; ${size} B is not a multiple of it`);
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module: device.createShaderModule({ code: SHADER_COPY_WGSL }), entryPoint: 'main' },
  });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: source, size } },
      { binding: 1, resource: { buffer: target, size } },
    ],
  });
  const groups = Math.ceil(size / bytesPerInvocation / SHADER_COPY_WORKGROUP);
  const x = Math.min(groups, MAX_WORKGROUPS_PER_DIMENSION);
  return () => {
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(x, Math.ceil(groups / x));
    pass.end();
    device.queue.submit([encoder.finish()]);
  };
}

/**
 * WebGPU, straight on tfjs's GPUDevice:
 * - upload: `queue.writeBuffer` into a storage buffer only ever written by writeBuffer (the
 *   harness's own upload path, src/transfer/webgpu/device-upload.ts: on lavapipe writeBuffer into a
 *   buffer the GPU has written is ~10x slower), then `onSubmittedWorkDone`;
 * - readback: `copyBufferToBuffer` into a MAP_READ buffer, `mapAsync(READ)`, and a copy of
 *   the mapped range into a host array (what tfjs's `data()` does);
 * - copy: `copyBufferToBuffer` between two storage buffers, then `onSubmittedWorkDone`.
 * tfjs's pending dispatches are submitted first (context.sync), so they are not timed.
 */
export async function webgpuOps(context: BackendContext): Promise<DeviceOps> {
  const device = (tf.backend() as WebGpuBackendInternals).device;
  // GPUBufferUsage is a global once Dawn is loaded (src/backend/webgpu.ts loadDawn).
  const flags = {
    storage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    mapRead: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  };
  const flush = tf.zeros([1]);
  await context.sync(flush);
  flush.dispose();
  const buffer = (size: number, usage: number) => device.createBuffer({ size, usage });
  return {
    uploadPath: 'queue.writeBuffer into a device storage buffer, then queue.onSubmittedWorkDone',
    readbackPath: 'copyBufferToBuffer into a MAP_READ buffer, mapAsync(READ), copy of the mapped range into a host array',
    copyPath: 'copyBufferToBuffer between two device storage buffers, then queue.onSubmittedWorkDone',
    shaderCopyPath:
      'a compute shader copying four vec4<u32> per invocation (64 bytes, workgroup 256) between two storage buffers, then queue.onSubmittedWorkDone',
    async upload(host, warmup, reps) {
      const target = buffer(host.byteLength, flags.storage);
      try {
        return await repeat(warmup, reps, async () => {
          const start = performance.now();
          device.queue.writeBuffer(target, 0, host);
          await device.queue.onSubmittedWorkDone();
          return performance.now() - start;
        });
      } finally {
        target.destroy();
      }
    },
    async readback(size, warmup, reps) {
      const source = buffer(size, flags.storage);
      const staging = buffer(size, flags.mapRead);
      const host = new Uint8Array(size);
      try {
        return await repeat(warmup, reps, async () => {
          const start = performance.now();
          const encoder = device.createCommandEncoder();
          encoder.copyBufferToBuffer(source, 0, staging, 0, size);
          device.queue.submit([encoder.finish()]);
          await staging.mapAsync(GPUMapMode.READ);
          host.set(new Uint8Array(staging.getMappedRange(0, size)));
          staging.unmap();
          return performance.now() - start;
        });
      } finally {
        source.destroy();
        staging.destroy();
      }
    },
    async copy(size, warmup, reps) {
      const source = buffer(size, flags.storage);
      const target = buffer(size, flags.storage);
      try {
        return await repeat(warmup, reps, async () => {
          const start = performance.now();
          const encoder = device.createCommandEncoder();
          encoder.copyBufferToBuffer(source, 0, target, 0, size);
          device.queue.submit([encoder.finish()]);
          await device.queue.onSubmittedWorkDone();
          return performance.now() - start;
        });
      } finally {
        source.destroy();
        target.destroy();
      }
    },
    async shaderCopy(size, warmup, reps) {
      const source = buffer(size, flags.storage);
      const target = buffer(size, flags.storage);
      const submit = shaderCopier(device, source, target, size);
      try {
        return await repeat(warmup, reps, async () => {
          const start = performance.now();
          submit();
          await device.queue.onSubmittedWorkDone();
          return performance.now() - start;
        });
      } finally {
        source.destroy();
        target.destroy();
      }
    },
  };
}

/**
 * wasm, cpu and tensorflow, through tfjs: upload = `tf.tensor` of the bytes as float32 made
 * resident (makeResident: wasm copies into its heap when the tensor is made; cpu keeps a
 * reference, so its "upload" costs nothing); readback = `await tensor.data()`. No device-to-device copy to time.
 */
export function tensorOps(context: BackendContext): DeviceOps {
  return {
    uploadPath: `tf.tensor of the bytes as float32, then the backend's upload and sync (${context.transfers.boundary})`,
    readbackPath: 'await tensor.data() of a resident float32 tensor',
    copyPath: null,
    shaderCopyPath: null,
    upload(host, warmup, reps) {
      const values = new Float32Array(host.buffer, host.byteOffset, host.byteLength / 4);
      return repeat(warmup, reps, async () => {
        const start = performance.now();
        const t = tf.tensor1d(values, 'float32');
        await makeResident(context, [t]);
        const ms = performance.now() - start;
        t.dispose();
        return ms;
      });
    },
    async readback(size, warmup, reps) {
      const t = tf.tensor1d(new Float32Array(size / 4), 'float32');
      await makeResident(context, [t]);
      try {
        return await repeat(warmup, reps, async () => {
          const start = performance.now();
          await t.data();
          return performance.now() - start;
        });
      } finally {
        t.dispose();
      }
    },
    copy() {
      return Promise.reject(new Error(`${context.name} has no device memory of its own to copy within`));
    },
    shaderCopy() {
      return Promise.reject(new Error(`${context.name} runs no shaders of the harness's own`));
    },
  };
}
