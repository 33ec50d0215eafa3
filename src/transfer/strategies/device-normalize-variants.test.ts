import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesOfSynced, countSynced } from '../../backend/synced-transfers.js';
import type { BackendContext } from '../../backend/types.js';
import { HOST_CAPABILITIES } from '../../backend/host-backends.js';
import { writeBufferByteCount } from '../../backend/webgpu-transfer-counter.js';
import { LeakCheck } from '../../measure/memory.js';
import { useBackend } from '../../suite/session.js';
import {
  ARTICLE_NORMALIZATION,
  IDENTITY_NORMALIZATION,
  normalizationTable,
  normalizeOnHost,
  normalizeWithTable,
  type Normalization,
} from '../normalization.js';
import { DECODE_PROGRAMS, DISPATCH_PATHS, NORMALIZE_PACKED_BYTES, type NormalizePackedAttrs } from '../kernels/normalize-packed-kernel.js';
import { packBytes } from '../wire/packed-bytes.js';
import { centerPixels, decodeOnHost } from '../wire/payload.js';
import { sendPacked, UPLOAD_PATHS, type SendOptions } from './send-payload.js';
import { cpuNormalize, deviceNormalize, type PixelBatch } from './strategies.js';
import { wireByteLength, type PackedWireDtype } from '../wire-dtypes.js';

// The fast paths of both strategies (writeBuffer upload into harness-owned buffers, the vec4
// decode program with its scalar tail, the direct dispatch, the lookup-table normalization)
// against the first versions and the host reference, bit for bit, on sizes that are and are
// not multiples of 16 and 4. On webgpu every variant runs; on host backends the options are
// accepted and ignored.

/** Every combination of program, dispatch and upload the device path offers. */
const SEND_VARIANTS: SendOptions[] = DECODE_PROGRAMS.flatMap((program) =>
  DISPATCH_PATHS.flatMap((dispatch) => UPLOAD_PATHS.map((upload) => ({ program, dispatch, upload }))),
);
const label = (o: SendOptions): string => `${o.program} program, ${o.dispatch} dispatch, ${o.upload} upload`;

/** Element counts: multiples of 16, of 4 but not 16, not of 4 (a scalar tail), below 4 (scalar only). */
const SIZES = [256, 512, 260, 259, 257, 33, 3, 1];

let context: BackendContext;
let leaks: LeakCheck;

beforeAll(async () => {
  context = await useBackend();
  leaks = new LeakCheck();
});

async function readAndDispose(t: tf.Tensor): Promise<Float32Array> {
  await context.sync(t);
  const values = (await t.data()) as Float32Array;
  t.dispose();
  return values;
}

/** Runs the kernel on hand-made words whose padding bytes are garbage. */
async function decodeWithGarbage(
  values: Uint8Array | Int8Array | Uint16Array,
  wire: PackedWireDtype,
  n: Normalization,
  program: 'scalar' | 'vec4',
): Promise<Float32Array> {
  const { words } = packBytes(values);
  new Uint8Array(words.buffer).fill(0xab, values.byteLength);
  const packed = tf.tensor1d(words, 'int32');
  const attrs: NormalizePackedAttrs = { shape: [values.length], wire, mean: n.mean, std: n.std, program };
  const out = tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
  packed.dispose();
  return readAndDispose(out);
}

/** `count` bytes that run through every value 0..255 (several times for long sizes). */
const everyByte = (count: number): Uint8Array => Uint8Array.from({ length: count }, (_, i) => (i * 97 + 13) % 256);

describe('vec4 decode program (with its scalar tail) vs the scalar program', () => {
  for (const wire of ['uint8', 'int8'] as const) {
    for (const n of [ARTICLE_NORMALIZATION, IDENTITY_NORMALIZATION]) {
      it(`${wire}, mean ${n.mean} std ${n.std}: same bits as the scalar program and the host reference, sizes ${SIZES.join(', ')}`, async () => {
        for (const size of SIZES) {
          const pixels = everyByte(size);
          const bytes = wire === 'uint8' ? pixels : centerPixels(pixels);
          const scalar = await decodeWithGarbage(bytes, wire, n, 'scalar');
          const vec4 = await decodeWithGarbage(bytes, wire, n, 'vec4');
          expect(vec4, `size ${size}`).toEqual(scalar);
          expect(vec4, `size ${size}`).toEqual(decodeOnHost(wire, bytes, n));
        }
      });
    }
  }

  it('every byte value, each at every position of a 16-pixel group', async () => {
    const pixels = Uint8Array.from({ length: 256 * 17 }, (_, i) => i % 256); // 17 is coprime to 16
    const vec4 = await decodeWithGarbage(pixels, 'uint8', ARTICLE_NORMALIZATION, 'vec4');
    expect(vec4).toEqual(normalizeOnHost(pixels, ARTICLE_NORMALIZATION));
  });

  it('float16: same values as the scalar program for element counts not a multiple of 4', async () => {
    for (const size of [1, 2, 3, 5, 6, 7, 8, 1001]) {
      const halves = Uint16Array.from({ length: size }, (_, i) => [0x3c00, 0xc000, 0x3555, 0x7bff, 0x0400, 0xbc00][i % 6]!);
      const scalar = await decodeWithGarbage(halves, 'float16', IDENTITY_NORMALIZATION, 'scalar');
      const vec4 = await decodeWithGarbage(halves, 'float16', IDENTITY_NORMALIZATION, 'vec4');
      expect(vec4, `size ${size}`).toEqual(scalar);
      expect(vec4, `size ${size}`).toEqual(decodeOnHost('float16', halves));
    }
  });
});

describe('device-normalize: every upload, program and dispatch variant', () => {
  const shapes: Array<PixelBatch['shape']> = [
    [2, 28, 28, 1], // 1,568 pixels: a multiple of 16
    [1, 5, 7, 3], // 105: not a multiple of 4
    [1, 3, 3, 2], // 18: a multiple of 2 only
  ];
  for (const options of SEND_VARIANTS) {
    it(`${label(options)}: host reference bits, wire bytes counted as data`, async () => {
      for (const shape of shapes) {
        const images = everyByte(shape.reduce((a, b) => a * b, 1));
        const { result, bytes } = await countSynced(context, () => deviceNormalize(ARTICLE_NORMALIZATION, options).toDevice({ images, shape }));
        expect(result.shape).toEqual([...shape]);
        expect(await readAndDispose(result)).toEqual(normalizeOnHost(images, ARTICLE_NORMALIZATION));
        expect(bytes.dataBytes).toBe(wireByteLength('uint8', images.length));
      }
    });
  }

  it('the harness buffer is reused only after the batch that read it: back-to-back batches without a sync', async () => {
    const strategy = deviceNormalize();
    const batches = [1, 2, 3].map((k) => ({ images: everyByte(4096).map((x) => (x * k) % 256), shape: [4, 32, 32, 1] as const }));
    const outs = batches.map((b) => strategy.toDevice(b)); // each write follows the previous batch's dispatch
    for (const [i, out] of outs.entries()) {
      expect(await readAndDispose(out), `batch ${i}`).toEqual(normalizeOnHost(batches[i]!.images, ARTICLE_NORMALIZATION));
    }
  });

  it('tf.profile sees the kernel (it falls back to runWebGPUProgram) and gets the same values', async () => {
    const images = everyByte(1568);
    const profile = await tf.profile(() => deviceNormalize().toDevice({ images, shape: [2, 28, 28, 1] }));
    expect(profile.kernelNames).toContain(NORMALIZE_PACKED_BYTES);
    expect(await readAndDispose(profile.result as tf.Tensor)).toEqual(normalizeOnHost(images, ARTICLE_NORMALIZATION));
  });
});

describe('cpu-normalize: lookup table and harness-owned output buffers', () => {
  it('the table gives the same float32 bits as the arithmetic, aligned or not, any length', () => {
    const table = normalizationTable(ARTICLE_NORMALIZATION);
    for (const [offset, length] of [
      [0, 1024],
      [0, 1027],
      [1, 1030],
      [3, 2],
    ] as const) {
      const pixels = new Uint8Array(everyByte(offset + length).buffer, offset, length);
      expect(normalizeWithTable(pixels, table, new Float32Array(length))).toEqual(normalizeOnHost(pixels, ARTICLE_NORMALIZATION));
    }
  });

  it('first and fast variants give the host reference and send 4 bytes per pixel', async () => {
    for (const options of [{}, { prepare: 'arithmetic', upload: 'tfjs' }, { prepare: 'table', upload: 'tfjs' }] as const) {
      const images = everyByte(105);
      const { result, bytes } = await countSynced(context, () =>
        cpuNormalize(context, ARTICLE_NORMALIZATION, options).toDevice({ images, shape: [1, 5, 7, 3] }),
      );
      expect(await readAndDispose(result)).toEqual(normalizeOnHost(images, ARTICLE_NORMALIZATION));
      expect(bytes.dataBytes).toBe(4 * 105);
    }
  });

  it('outputs kept alive are never overwritten by later batches (more than the buffers kept spare), reshaped views included', async () => {
    const strategy = cpuNormalize(context);
    const batches = Array.from({ length: 7 }, (_, k) => ({ images: everyByte(1568).map((x) => (x + 31 * k) % 256), shape: [2, 28, 28, 1] as const }));
    const outs = batches.map((b) => strategy.toDevice(b));
    // A reshape shares the data: disposing the original must not free the buffer for reuse.
    const view = outs[0]!.reshape([-1]);
    outs[0]!.dispose();
    const later = strategy.toDevice(batches[6]!);
    expect(await readAndDispose(view)).toEqual(normalizeOnHost(batches[0]!.images, ARTICLE_NORMALIZATION));
    for (let i = 1; i < outs.length; i++) {
      expect(await readAndDispose(outs[i]!), `batch ${i}`).toEqual(normalizeOnHost(batches[i]!.images, ARTICLE_NORMALIZATION));
    }
    expect(await readAndDispose(later)).toEqual(normalizeOnHost(batches[6]!.images, ARTICLE_NORMALIZATION));
  });
});

describe.each(['cpu', 'wasm'] as const)('cpu-normalize on the %s backend', (name) => {
  let previous: string | undefined;
  beforeAll(async () => {
    previous = tf.getBackend() as string | undefined;
    expect(await tf.setBackend(name)).toBe(true);
  });
  afterAll(async () => {
    if (previous) await tf.setBackend(previous);
  });

  it('earlier outputs keep their values while later batches are prepared (the cpu backend keeps the host array)', async () => {
    const host: BackendContext = { ...context, name, adapter: null, capabilities: HOST_CAPABILITIES[name], upload: () => {}, sync: async () => {} };
    for (const options of [{}, { prepare: 'arithmetic' }] as const) {
      const strategy = cpuNormalize(host, ARTICLE_NORMALIZATION, options);
      const batches = [0, 1].map((k) => ({ images: everyByte(105).map((x) => (x + 100 * k) % 256), shape: [1, 5, 7, 3] as const }));
      const outs = batches.map((b) => strategy.toDevice(b));
      for (const [i, out] of outs.entries())
        expect(await readAndDispose(out), `batch ${i}`).toEqual(normalizeOnHost(batches[i]!.images, ARTICLE_NORMALIZATION));
    }
  });
});

describe('byte counter', () => {
  it('counts writeBuffer sizes in bytes whether data is an ArrayBuffer or a typed array (offsets and sizes in elements)', () => {
    expect(writeBufferByteCount(new ArrayBuffer(64))).toBe(64);
    expect(writeBufferByteCount(new ArrayBuffer(64), 16, 8)).toBe(8);
    expect(writeBufferByteCount(new Float32Array(10))).toBe(40);
    expect(writeBufferByteCount(new Float32Array(10), 2)).toBe(32);
    expect(writeBufferByteCount(new Float32Array(10), 2, 4)).toBe(16);
    expect(writeBufferByteCount(new Uint8Array(new ArrayBuffer(16), 4, 8))).toBe(8);
  });

  it('sendPacked on webgpu: the words as data, uniforms apart', async () => {
    const values = everyByte(50_176);
    const bytes = await bytesOfSynced(context, () => sendPacked({ dtype: 'uint8', values, shape: [64, 28, 28, 1] }, ARTICLE_NORMALIZATION));
    expect(bytes.dataBytes).toBe(50_176);
  });
});

describe('no leaks', () => {
  it('leaves no tensors behind', () => {
    expect(leaks.leakedTensors()).toBe(0);
  });
});
