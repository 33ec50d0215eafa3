/**
 * tfjs-backend-webgl in a browser page, with its uploads counted at the WebGL API. No host
 * access: the page hands in its WebGL classes (browser-start.ts).
 */
import * as tf from '@tensorflow/tfjs';
import { recordCapabilities, runningBackendName } from './capabilities.js';
import { BackendUnavailableError } from './errors.js';
import { softwareAdapterName } from './fingerprint.js';
import { ImageCountingTransferCounter, imageSourcePixels, type SizedSource } from './transfer-counter.js';

export { imageSourcePixels };
import type { AdapterDescription, BackendContext } from './types.js';

/** The WebGL rendering context classes whose methods carry data (WebGL 1 and 2). */
export type WebGlGlobals = Readonly<Record<'WebGL2RenderingContext' | 'WebGLRenderingContext', { prototype: object } | undefined>>;

/**
 * Bytes host memory handed to WebGL and pixels of image sources that never were host arrays
 * (ImageBitmap, canvas, image, video element, VideoFrame passed to texImage2D/texSubImage2D):
 * imagePixels, counted apart from dataBytes.
 */
export class WebGlTransferCounter extends ImageCountingTransferCounter {}

/**
 * Bytes of a typed array handed to WebGL from element `srcOffset` (WebGL 2's srcOffset and
 * length count elements of the array's type; WebGL 2 spec 3.7.3 bufferData, 3.7.6 texImage2D).
 */
export function viewBytes(view: ArrayBufferView, srcOffset = 0, length?: number): number {
  const size = (view as Partial<Uint8Array>).BYTES_PER_ELEMENT ?? 1;
  const elements = view.byteLength / size;
  return (length !== undefined && length > 0 ? length : elements - srcOffset) * size;
}

/** Adds the bytes (typed arrays) and image pixels (anything with a size) among one call's arguments. */
function countUpload(counter: WebGlTransferCounter, args: readonly unknown[], viewAt: number): void {
  const arg = args[viewAt];
  if (ArrayBuffer.isView(arg)) counter.dataBytes += viewBytes(arg, (args[viewAt + 1] as number | undefined) ?? 0, args[viewAt + 2] as number | undefined);
  else if (arg instanceof ArrayBuffer) counter.dataBytes += arg.byteLength;
  // ImageData's pixels are a Uint8ClampedArray the page holds: host bytes, not an image import.
  else if (typeof ImageData !== 'undefined' && arg instanceof ImageData) counter.dataBytes += arg.data.byteLength;
  else if (arg !== null && typeof arg === 'object') counter.imagePixels += imageSourcePixels(arg as SizedSource);
}

/**
 * Where each counted method's data argument is, by argument count: texImage2D(target, level,
 * internalformat, width, height, border, format, type, pixels[, srcOffset]) or (target, level,
 * internalformat, format, type, source); texSubImage2D(target, level, x, y, width, height, format,
 * type, pixels[, srcOffset]) or (target, level, x, y, format, type, source); bufferData(target,
 * data|size, usage[, srcOffset[, length]]); bufferSubData(target, offset, data[, srcOffset[, length]]).
 * A number where data goes (a size, a pixel-unpack-buffer offset) moves no host bytes.
 */
const DATA_ARGUMENT: Readonly<Record<'texImage2D' | 'texSubImage2D' | 'bufferData' | 'bufferSubData', (count: number) => number>> = {
  texImage2D: (count) => (count === 6 ? 5 : 8),
  texSubImage2D: (count) => (count === 7 ? 6 : 8),
  bufferData: () => 1,
  bufferSubData: () => 2,
};

/**
 * Counts host->device bytes at the WebGL API, so the figure is what the driver was handed, not
 * what tfjs meant to send: texImage2D/texSubImage2D/bufferData/bufferSubData typed-array bytes
 * (data), image sources' pixels apart (imagePixels), readPixels and getBufferSubData (readback).
 * Uniforms are not counted. Must be installed before the backend creates its context.
 */
export function installWebGlTransferCounter(globals: WebGlGlobals): WebGlTransferCounter {
  const counter = new WebGlTransferCounter(
    'WebGL API: texImage2D/texSubImage2D/bufferData/bufferSubData typed-array bytes (data; image sources counted apart as pixels), readPixels/getBufferSubData (readback); uniforms not counted',
  );
  for (const cls of [globals.WebGL2RenderingContext, globals.WebGLRenderingContext]) {
    if (!cls) continue;
    const proto = cls.prototype as Record<string, (...args: unknown[]) => unknown>;
    for (const [name, at] of Object.entries(DATA_ARGUMENT)) {
      const original = proto[name];
      if (!original) continue;
      proto[name] = function (this: unknown, ...args: unknown[]) {
        countUpload(counter, args, at(args.length));
        return original.apply(this, args);
      };
    }
    const readPixels = proto.readPixels;
    if (readPixels) {
      proto.readPixels = function (this: unknown, ...args: unknown[]) {
        if (ArrayBuffer.isView(args[6])) counter.readbackBytes += viewBytes(args[6], (args[7] as number | undefined) ?? 0);
        return readPixels.apply(this, args);
      };
    }
    const getBufferSubData = proto.getBufferSubData;
    if (getBufferSubData) {
      proto.getBufferSubData = function (this: unknown, ...args: unknown[]) {
        if (ArrayBuffer.isView(args[2])) counter.readbackBytes += viewBytes(args[2], (args[3] as number | undefined) ?? 0, args[4] as number | undefined);
        return getBufferSubData.apply(this, args);
      };
    }
  }
  return counter;
}

/** The part of tfjs-backend-webgl's MathBackendWebGL the harness drives. */
interface WebGlBackendInternals extends tf.KernelBackend {
  gpgpu: { gl: WebGLRenderingContext; createAndWaitForFence(): Promise<void> };
  uploadToGPU(dataId: object): void;
}

/** The GPU behind the context, as WEBGL_debug_renderer_info names it (ANGLE's renderer string). */
function describeGl(gl: WebGLRenderingContext): AdapterDescription {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const vendor = String(info ? gl.getParameter(info.UNMASKED_VENDOR_WEBGL) : gl.getParameter(gl.VENDOR));
  const renderer = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  const fields = { vendor, architecture: '', device: renderer, description: String(gl.getParameter(gl.VERSION)) };
  return { ...fields, isSoftware: softwareAdapterName(fields) !== null, features: [] };
}

/**
 * Starts tfjs-backend-webgl with the counter installed first, then reads back what tfjs runs
 * on: where WebGL does not start, tfjs.setBackend('webgl') may resolve and tfjs keep computing
 * on another backend (shared/facts/browser-chromium.md), so anything but webgl is refused.
 */
export async function startWebGl(globals: WebGlGlobals, reason: string): Promise<BackendContext> {
  const transfers = installWebGlTransferCounter(globals);
  await import('@tensorflow/tfjs-backend-webgl');
  const set = await tf.setBackend('webgl').catch((error: unknown) => `threw: ${String(error)}`);
  const running = runningBackendName();
  if (set !== true || running !== 'webgl') {
    throw new BackendUnavailableError(
      `asked for webgl, but tfjs ${set === false ? 'could not initialize it' : set === true ? 'initialized it' : `setBackend ${set}`} and runs on ${running ?? 'nothing'}: refused, its numbers would not be WebGL's (is WebGL 2 enabled in this browser? chrome://gpu says)`,
    );
  }
  const backend = tf.backend() as WebGlBackendInternals;
  return {
    name: 'webgl',
    reason,
    adapter: describeGl(backend.gpgpu.gl),
    isUsingGpuDevice: null,
    // No GPUDevice, no timestamps tfjs reads; a tensor keeps its host array until first use.
    capabilities: recordCapabilities({ hasGpuDevice: false, gpuTimestamps: false, copiesHostArrays: false }),
    transfers,
    upload(tensor) {
      backend.uploadToGPU(tensor.dataId);
    },
    async sync() {
      // A fence after everything issued so far, polled by tfjs's gpgpu context (setTimeout steps).
      await backend.gpgpu.createAndWaitForFence();
    },
  };
}
