import { ImageCountingTransferCounter, imageSourcePixels, type SizedSource } from './transfer-counter.js';

/** The WebGPU classes of the `webgpu` package whose methods carry data. */
export interface WebGpuGlobals {
  GPUDevice: {
    prototype: {
      createBuffer(descriptor: GPUBufferDescriptor): GPUBuffer;
      /** A browser's import of a video frame as an external texture (Dawn in Node has none). */
      importExternalTexture?(descriptor: GPUExternalTextureDescriptor): GPUExternalTexture;
    };
  };
  GPUQueue: {
    prototype: {
      writeBuffer(buffer: GPUBuffer, offset: number, data: BufferSource | SharedArrayBuffer, dataOffset?: number, size?: number): void;
      /** A browser's import of an image source into a texture (Dawn in Node has none). */
      copyExternalImageToTexture?(source: GPUCopyExternalImageSourceInfo, destination: GPUCopyExternalImageDestInfo, copySize: GPUExtent3DStrict): void;
    };
  };
  GPUBuffer: { prototype: { mapAsync(mode: number, offset?: number, size?: number): Promise<void> } };
}

const MAP_READ = 0x0001; // GPUMapMode.READ / GPUBufferUsage.MAP_READ
const UNIFORM = 0x0040; // GPUBufferUsage.UNIFORM

/**
 * Bytes `queue.writeBuffer(buffer, offset, data, dataOffset, size)` writes: `size` and
 * `dataOffset` count elements of a typed array's type, bytes for an ArrayBuffer (WebGPU spec,
 * GPUQueue.writeBuffer).
 */
export function writeBufferByteCount(data: BufferSource | SharedArrayBuffer, dataOffset = 0, size?: number): number {
  const elementSize = ArrayBuffer.isView(data) ? ((data as Partial<Uint8Array>).BYTES_PER_ELEMENT ?? 1) : 1;
  const elements = ArrayBuffer.isView(data) ? data.byteLength / elementSize : data.byteLength;
  return (size ?? elements - dataOffset) * elementSize;
}

/** Pixels (texels) a copy of `extent` covers: width x height x depth (WebGPU spec, GPUExtent3D; height and depth default to 1). */
export function extentPixels(extent: GPUExtent3DStrict): number {
  if (Symbol.iterator in Object(extent)) {
    const [width = 0, height = 1, depth = 1] = [...(extent as Iterable<number>)];
    return width * height * depth;
  }
  const e = extent as GPUExtent3DDictStrict;
  return e.width * (e.height ?? 1) * (e.depthOrArrayLayers ?? 1);
}

/**
 * Counts host<->device bytes at the WebGPU API itself, so the figure is what the driver was
 * handed, not what tfjs meant to send. Must be installed before the device is created.
 *
 * Data: buffers created `mappedAtCreation` (tfjs's upload: a new storage buffer, or a MAP_WRITE
 * staging buffer copied into a pooled one) and `queue.writeBuffer` into any buffer without
 * UNIFORM usage (the harness's own upload buffers, device-upload.ts). Uniforms:
 * `queue.writeBuffer` into UNIFORM buffers (tfjs's per-dispatch parameters). Readback:
 * `mapAsync(READ)` (see shared/facts). Image pixels: `queue.copyExternalImageToTexture` in a browser
 * (tf.browser.fromPixels of an ImageBitmap or canvas), the copy's width x height, and
 * `device.importExternalTexture` (fromPixels of a video element: tfjs-backend-webgpu 4.22
 * FromPixels with WEBGPU_IMPORT_EXTERNAL_TEXTURE, its default), the frame's size; not CPU bytes.
 */
export function installWebGpuTransferCounter(globals: WebGpuGlobals): ImageCountingTransferCounter {
  const copyExternal = globals.GPUQueue.prototype.copyExternalImageToTexture;
  const importExternal = globals.GPUDevice.prototype.importExternalTexture;
  // Node's boundary text stays as its records and baselines say it; a browser's adds the image imports.
  const counter = new ImageCountingTransferCounter(
    'WebGPU API: buffers created mappedAtCreation and queue.writeBuffer into non-uniform buffers (data), queue.writeBuffer into UNIFORM buffers (uniforms), mapAsync(READ) (readback)' +
      (copyExternal ? '; queue.copyExternalImageToTexture counted apart as image pixels (width x height)' : '') +
      (importExternal ? '; device.importExternalTexture (video frames) counted apart as image pixels' : ''),
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
    const bytes = writeBufferByteCount(data, dataOffset, size);
    if ((buffer.usage & UNIFORM) !== 0) counter.uniformBytes += bytes;
    else counter.dataBytes += bytes;
    return writeBuffer.call(this, buffer, offset, data, dataOffset, size);
  };
  if (copyExternal) {
    globals.GPUQueue.prototype.copyExternalImageToTexture = function (this: unknown, source, destination, copySize) {
      counter.imagePixels += extentPixels(copySize);
      return copyExternal.call(this, source, destination, copySize);
    };
  }
  if (importExternal) {
    globals.GPUDevice.prototype.importExternalTexture = function (this: unknown, descriptor) {
      counter.imagePixels += imageSourcePixels(descriptor.source as SizedSource);
      return importExternal.call(this, descriptor);
    };
  }
  const mapAsync = globals.GPUBuffer.prototype.mapAsync;
  globals.GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, mode, offset, size) {
    if ((mode & MAP_READ) !== 0) counter.readbackBytes += size ?? this.size - (offset ?? 0);
    return mapAsync.call(this, mode, offset, size);
  };
  return counter;
}
