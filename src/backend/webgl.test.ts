import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { runningBackendName } from './capabilities.js';
import { imageSourcePixels, installWebGlTransferCounter, startWebGl, viewBytes } from './webgl.js';

/** A stand-in class with WebGL's upload and readback methods (Node has no WebGL; the page test runs the real one). */
function fakeGl() {
  const calls: string[] = [];
  class Gl {
    texImage2D(...args: unknown[]) {
      calls.push(`texImage2D/${args.length}`);
    }
    texSubImage2D(...args: unknown[]) {
      calls.push(`texSubImage2D/${args.length}`);
    }
    bufferData(...args: unknown[]) {
      calls.push(`bufferData/${args.length}`);
    }
    bufferSubData(...args: unknown[]) {
      calls.push(`bufferSubData/${args.length}`);
    }
    readPixels(...args: unknown[]) {
      calls.push(`readPixels/${args.length}`);
    }
    getBufferSubData(...args: unknown[]) {
      calls.push(`getBufferSubData/${args.length}`);
    }
  }
  return { Gl, calls };
}

describe('WebGL byte counter', () => {
  it('counts typed-array bytes from srcOffset (elements of the array type) or length', () => {
    expect(viewBytes(new Float32Array(10))).toBe(40);
    expect(viewBytes(new Float32Array(10), 4)).toBe(24);
    expect(viewBytes(new Int32Array(10), 0, 3)).toBe(12);
    expect(viewBytes(new Uint8Array(new ArrayBuffer(16), 4, 8))).toBe(8);
  });

  it('takes an image source as its pixel count: a video by its video size, an image by its natural size', () => {
    expect(imageSourcePixels({ width: 224, height: 224 })).toBe(50_176);
    expect(imageSourcePixels({ width: 10, height: 10, videoWidth: 320, videoHeight: 240 })).toBe(76_800);
    expect(imageSourcePixels({ width: 10, height: 10, naturalWidth: 64, naturalHeight: 48 })).toBe(3_072);
  });

  it('counts each upload form by its argument count, image sources apart, readbacks, and still calls WebGL', () => {
    const { Gl, calls } = fakeGl();
    const counter = installWebGlTransferCounter({ WebGL2RenderingContext: Gl, WebGLRenderingContext: undefined });
    const gl = new Gl();
    gl.texImage2D(0, 0, 0, 2, 2, 0, 0, 0, new Float32Array(16)); // 64 B
    gl.texSubImage2D(0, 0, 0, 0, 2, 2, 0, 0, new Float32Array(16), 8); // from element 8: 32 B
    gl.texImage2D(0, 0, 0, 0, 0, { width: 4, height: 3 }); // an ImageBitmap-like source: 12 pixels
    gl.texSubImage2D(0, 0, 0, 0, 0, 0, { width: 5, height: 5 }); // 25 pixels
    gl.texImage2D(0, 0, 0, 2, 2, 0, 0, 0, null); // allocation only
    gl.texSubImage2D(0, 0, 0, 0, 2, 2, 0, 0, 1024); // from a pixel-unpack buffer: no host bytes
    gl.bufferData(0, 4096, 0); // a size: no host bytes
    gl.bufferData(0, new Uint8Array(100), 0); // 100 B
    gl.bufferSubData(0, 0, new Int32Array(10), 2, 4); // 4 elements: 16 B
    gl.readPixels(0, 0, 2, 2, 0, 0, new Float32Array(16)); // 64 B back
    gl.getBufferSubData(0, 0, new Float32Array(8)); // 32 B back
    expect(counter.totals()).toEqual({ dataBytes: 64 + 32 + 100 + 16, uniformBytes: 0, readbackBytes: 96 });
    expect(counter.imagePixels).toBe(37);
    expect(calls).toHaveLength(11);
  });
});

describe('startWebGl', () => {
  it('refuses a run where WebGL did not start and tfjs computes on another backend (the fallback trap, issue 43)', async () => {
    // A webgl backend whose context cannot be had, as in a browser whose WebGL is off
    // (shared/facts/browser-chromium.md): tfjs's setBackend gives up and tfjs keeps running on
    // the backend it had. tfjs-backend-webgl registers itself only in a browser, so Node gets
    // the failing factory here; the refusal is the harness's reading back.
    // The unit run shares one tfjs between files (isolate: false): the backend this test found is put back.
    const before = tf.getBackend();
    await tf.setBackend('cpu');
    tf.registerBackend('webgl', () => {
      throw new Error('Could not get context for WebGL version 2');
    });
    const none = { WebGL2RenderingContext: undefined, WebGLRenderingContext: undefined };
    try {
      const refused = await startWebGl(none, 'test').then(
        () => null,
        (error: unknown) => String(error),
      );
      // What tfjs computes on next is its best registered backend: cpu alone; with wasm registered
      // (an async start, as in the unit run's shared tfjs) none until awaited. Either way not webgl.
      const running = runningBackendName();
      expect(running).not.toBe('webgl');
      expect(refused).toMatch(new RegExp(`asked for webgl, but tfjs could not initialize it and runs on ${running ?? 'nothing'}: refused`));
    } finally {
      tf.removeBackend('webgl');
      if (before) await tf.setBackend(before);
    }
  });
});
