import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BackendContext } from './types.js';
import type { WebGpuBackendInternals } from './webgpu.js';
import { useBackend } from '../suite/session.js';
import { shaderCopier } from './device-ops.js';

let context: BackendContext;

beforeAll(async () => {
  context = await useBackend();
});

describe('the shader copy the device limit is measured with', () => {
  it('copies every byte, and only the bytes asked for', async (ctx) => {
    if (context.name !== 'webgpu') return ctx.skip(`backend ${context.name} runs no shaders of the harness's own`);
    const device = (tf.backend() as WebGpuBackendInternals).device;
    const size = 64 * 1000; // 1,000 invocations: not a multiple of the workgroup of 256
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const source = device.createBuffer({ size, usage });
    const target = device.createBuffer({ size: size + 64, usage });
    const staging = device.createBuffer({ size: size + 64, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 7 + 3) & 255);
    device.queue.writeBuffer(source, 0, bytes);
    device.queue.writeBuffer(target, 0, new Uint8Array(size + 64).fill(0xee));
    shaderCopier(device, source, target, size)();
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(target, 0, staging, 0, size + 64);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const copied = new Uint8Array(staging.getMappedRange().slice(0));
    staging.unmap();
    for (const b of [source, target, staging]) b.destroy();
    expect(copied.subarray(0, size)).toEqual(bytes);
    expect(copied.subarray(size).every((b) => b === 0xee)).toBe(true);
  });

  it('refuses a size that is not whole invocations', (ctx) => {
    if (context.name !== 'webgpu') return ctx.skip(`backend ${context.name} runs no shaders of the harness's own`);
    const device = (tf.backend() as WebGpuBackendInternals).device;
    const b = device.createBuffer({ size: 128, usage: GPUBufferUsage.STORAGE });
    expect(() => shaderCopier(device, b, b, 100)).toThrow(/64 B per invocation/);
    b.destroy();
  });
});
