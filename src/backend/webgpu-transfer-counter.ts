import { MutableTransferCounter } from './transfer-counter.js';

/** The WebGPU classes of the `webgpu` package whose methods carry data. */
export interface WebGpuGlobals {
  GPUDevice: { prototype: { createBuffer(descriptor: GPUBufferDescriptor): GPUBuffer } };
  GPUQueue: {
    prototype: { writeBuffer(buffer: GPUBuffer, offset: number, data: BufferSource | SharedArrayBuffer, dataOffset?: number, size?: number): void };
  };
  GPUBuffer: { prototype: { mapAsync(mode: number, offset?: number, size?: number): Promise<void> } };
}

const MAP_READ = 0x0001; // GPUMapMode.READ / GPUBufferUsage.MAP_READ

/**
 * Counts host<->device bytes at the WebGPU API itself, so the figure is what the driver was
 * handed, not what tfjs meant to send. Must be installed before the device is created.
 *
 * tfjs-backend-webgpu uploads tensor data through buffers created `mappedAtCreation` (a new
 * storage buffer, or a MAP_WRITE staging buffer copied into a pooled one), and uniforms through
 * `queue.writeBuffer`; it reads back through MAP_READ buffers (see shared/facts).
 */
export function installWebGpuTransferCounter(globals: WebGpuGlobals): MutableTransferCounter {
  const counter = new MutableTransferCounter(
    'WebGPU API: buffers created mappedAtCreation (data), queue.writeBuffer (uniforms), mapAsync(READ) (readback)',
  );
  const createBuffer = globals.GPUDevice.prototype.createBuffer;
  globals.GPUDevice.prototype.createBuffer = function (this: unknown, descriptor: GPUBufferDescriptor) {
    if (descriptor.mappedAtCreation === true && (descriptor.usage & MAP_READ) === 0) {
      counter.dataBytes += descriptor.size;
    }
    return createBuffer.call(this, descriptor);
  };
  const writeBuffer = globals.GPUQueue.prototype.writeBuffer;
  globals.GPUQueue.prototype.writeBuffer = function (this: unknown, buffer, offset, data, dataOffset, size) {
    counter.uniformBytes += size ?? (data as ArrayBufferView).byteLength - (dataOffset ?? 0);
    return writeBuffer.call(this, buffer, offset, data, dataOffset, size);
  };
  const mapAsync = globals.GPUBuffer.prototype.mapAsync;
  globals.GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, mode, offset, size) {
    if ((mode & MAP_READ) !== 0) counter.readbackBytes += size ?? this.size - (offset ?? 0);
    return mapAsync.call(this, mode, offset, size);
  };
  return counter;
}
