import { describe, expect, it } from 'vitest';
import { imagePixelsOf } from './transfer-counter.js';
import { extentPixels, installWebGpuTransferCounter, type WebGpuGlobals } from './webgpu-transfer-counter.js';

describe('extentPixels', () => {
  it('reads a GPUExtent3D as a sequence or a dictionary, height and depth defaulting to 1', () => {
    expect(extentPixels([224, 224])).toBe(50_176);
    expect(extentPixels([64])).toBe(64);
    expect(extentPixels([4, 3, 2])).toBe(24);
    expect(extentPixels({ width: 80, height: 60 })).toBe(4_800);
    expect(extentPixels({ width: 7 })).toBe(7);
    expect(extentPixels({ width: 2, height: 3, depthOrArrayLayers: 5 })).toBe(30);
  });
});

describe('installWebGpuTransferCounter', () => {
  // Classes with the WebGPU methods' signatures that record nothing: the counter wraps their
  // prototypes as it wraps the browser's (Dawn in Node has no copyExternalImageToTexture).
  function globals(withImageCopy: boolean): { g: WebGpuGlobals; copied: unknown[][] } {
    const copied: unknown[][] = [];
    class GPUQueue {
      writeBuffer(): void {}
    }
    if (withImageCopy) {
      (GPUQueue.prototype as unknown as Record<string, unknown>).copyExternalImageToTexture = (...args: unknown[]) => copied.push(args);
    }
    class GPUDevice {
      createBuffer(d: GPUBufferDescriptor): GPUBuffer {
        return d as unknown as GPUBuffer;
      }
    }
    if (withImageCopy) {
      (GPUDevice.prototype as unknown as Record<string, unknown>).importExternalTexture = (...args: unknown[]) => copied.push(args);
    }
    class GPUBuffer {
      mapAsync(): Promise<void> {
        return Promise.resolve();
      }
    }
    return { g: { GPUDevice, GPUQueue, GPUBuffer } as unknown as WebGpuGlobals, copied };
  }

  it("counts a browser's copyExternalImageToTexture as image pixels, not data bytes, and still calls it", () => {
    const { g, copied } = globals(true);
    const counter = installWebGpuTransferCounter(g);
    const queue = new (g.GPUQueue as unknown as new () => { copyExternalImageToTexture(s: unknown, d: unknown, e: GPUExtent3DStrict): void })();
    queue.copyExternalImageToTexture({ source: 'bitmap' }, { texture: 't' }, [80, 60]);
    expect(imagePixelsOf(counter)).toBe(4_800);
    expect(counter.totals().dataBytes).toBe(0);
    expect(copied).toEqual([[{ source: 'bitmap' }, { texture: 't' }, [80, 60]]]);
    expect(counter.boundary).toMatch(/copyExternalImageToTexture counted apart as image pixels/);
  });

  it("counts a browser's importExternalTexture (a video element's frame) as image pixels, by the video's size, and still calls it", () => {
    const { g, copied } = globals(true);
    const counter = installWebGpuTransferCounter(g);
    const device = new (g.GPUDevice as unknown as new () => { importExternalTexture(d: unknown): void })();
    const video = { width: 300, height: 150, videoWidth: 64, videoHeight: 48 };
    device.importExternalTexture({ source: video });
    expect(imagePixelsOf(counter)).toBe(3_072);
    expect(counter.totals().dataBytes).toBe(0);
    expect(copied).toEqual([[{ source: video }]]);
    expect(counter.boundary).toMatch(/importExternalTexture \(video frames\) counted apart as image pixels/);
  });

  it("keeps Node's boundary text where the queue has no image import", () => {
    const counter = installWebGpuTransferCounter(globals(false).g);
    expect(imagePixelsOf(counter)).toBe(0);
    expect(counter.boundary).not.toMatch(/copyExternalImageToTexture|importExternalTexture/);
  });
});
