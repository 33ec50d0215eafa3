import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCpu, startWasm } from '../../backend/host-backends.js';
import type { BackendContext } from '../../backend/types.js';
import { maxAbsDiff } from '../../measure/statistics.js';
import { useBackend } from '../../suite/session.js';
import { IMAGENET_NORMALIZATION, type ChannelNormalization } from '../normalization.js';
import { sendPacked, sendPayload } from '../strategies/send-payload.js';
import { stagedToDevice, wireDtypeTransfer } from '../strategies/staged-transfer.js';
import { float16BitsToFloat32, float32ToFloat16Bits, float16RoundingBound } from '../wire/float16.js';
import { centerPixels, encodePixels } from '../wire/payload.js';
import { WIRE_DTYPES, type PackedWireDtype } from '../wire-dtypes.js';
import { NORMALIZE_PACKED_BYTES, type NormalizePackedAttrs } from './normalize-packed-kernel.js';

// Per-channel normalization through the wire API (sendPacked, encodePixels + sendPayload,
// wireDtypeTransfer) into the NormalizePackedBytes kernel, for uint8, int8 and float16, on the
// suite's backend (webgpu in CI) and on cpu and wasm. The reference is computed here, in
// float64 from the element's value and its channel's constants, rounded once to float32:
// (v - mean[i % C]) / std[i % C].

/** Distinct constants per channel; 3 channels ImageNet's, 5 channels past the select() path of the WGSL helpers. */
const NORMS: Record<number, ChannelNormalization> = {
  1: { mean: [33.5], std: [64.25] },
  3: IMAGENET_NORMALIZATION,
  4: { mean: [10, 120.5, 200.25, 255], std: [3.5, 60, 100.125, 7] },
  5: { mean: [0, 50, 100, 150, 200], std: [1, 2, 4, 8, 16] },
};

/**
 * Shapes, channels last: element counts a multiple of 16 (vec4 programs only), of 4 but not 16,
 * not of 4 (a scalar tail), under 16 (scalar program only).
 */
const SHAPES: ReadonlyArray<readonly number[]> = [
  [2, 4, 8, 3], // 192
  [1, 5, 7, 3], // 105: tail
  [1, 3, 5, 4], // 60
  [2, 3, 3, 5], // 90: tail, 5 channels
  [1, 1, 3, 3], // 9: scalar only
  [1, 6, 7, 1], // 42: one channel
];

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** `count` bytes through every value, shifted so that no two channels see the same sequence. */
const everyByte = (count: number, seed = 13): Uint8Array => Uint8Array.from({ length: count }, (_, i) => (i * 97 + seed) % 256);

/** Values of each packed type, as sent: raw bytes, bytes - 128, and halves (raw pixels here, so the device normalizes them). */
function wireValues(wire: PackedWireDtype, pixels: Uint8Array): { values: Uint8Array | Int8Array | Uint16Array; decoded: Float64Array } {
  switch (wire) {
    case 'uint8':
      return { values: pixels, decoded: Float64Array.from(pixels) };
    case 'int8': {
      const values = centerPixels(pixels);
      return { values, decoded: Float64Array.from(values) };
    }
    case 'float16': {
      // Pixel values plus a fraction (x + 0.375 is exact in half for x < 512): not all integers.
      const values = Uint16Array.from(pixels, (x) => float32ToFloat16Bits(x + 0.375));
      return { values, decoded: Float64Array.from(values, float16BitsToFloat32) };
    }
  }
}

/** The host reference: float64, rounded once. */
function reference(decoded: Float64Array, n: ChannelNormalization): Float32Array {
  const C = n.mean.length;
  return Float32Array.from(decoded, (v, i) => (v - n.mean[i % C]!) / n.std[i % C]!);
}

/**
 * What f32 arithmetic gives on the device: the constants rounded to f32, an exactly rounded
 * subtraction (x and mean(f32) differ by far less than 2^29 binades, so their float64
 * difference is exact before fround), and a division (float64 then float32 rounding is exact
 * for division: 53 >= 2 * 24 + 2, Figueroa, "When is double rounding innocuous?", 1995).
 */
function f32Arithmetic(decoded: Float64Array, n: ChannelNormalization): Float32Array {
  const C = n.mean.length;
  return Float32Array.from(decoded, (v, i) => Math.fround(Math.fround(v - Math.fround(n.mean[i % C]!)) / Math.fround(n.std[i % C]!)));
}

/** ULP of float32 at |y| (y normal or zero). */
function ulp(y: number): number {
  const a = Math.abs(y);
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

/**
 * The device result against the host reference: on cpu and wasm the kernel is the float64
 * reference itself, so equal bit for bit; on webgpu each element is within 2.5 ULP of the f32
 * arithmetic (WGSL's accuracy of f32 division, WGSL spec "Floating Point Accuracy"; subtraction
 * is correctly rounded), and the whole within 1e-6 of the float64 reference (the bound of the
 * crop-mirror-normalize tests: f32 rounding of mean, std and the result for |y| < 8).
 */
function expectMatches(device: Float32Array, decoded: Float64Array, n: ChannelNormalization, what: string): void {
  const exact = reference(decoded, n);
  if (tf.getBackend() !== 'webgpu') {
    expect(device, what).toEqual(exact);
    return;
  }
  const f32 = f32Arithmetic(decoded, n);
  const far = [...device].flatMap((v, i) => (Math.abs(v - f32[i]!) <= 2.5 * ulp(f32[i]!) ? [] : [`element ${i}: ${v} vs ${f32[i]}`]));
  expect(far, what).toEqual([]);
  expect(maxAbsDiff(device, exact), what).toBeLessThanOrEqual(1e-6);
}

async function read(t: tf.Tensor, context: BackendContext): Promise<Float32Array> {
  await context.sync(t);
  const values = (await t.data()) as Float32Array;
  t.dispose();
  return values;
}

/** The device of a webgpu run (null on host backends), to collect validation errors. */
const gpuDevice = (): GPUDevice | null => (tf.getBackend() === 'webgpu' ? (tf.backend() as unknown as { device: GPUDevice }).device : null);

function perChannelSuite(backendName: () => string, contextOf: () => BackendContext): void {
  for (const wire of ['uint8', 'int8', 'float16'] as const) {
    it(`${wire}: sendPacked with per-channel mean/std equals the host reference, every shape`, async () => {
      const context = contextOf();
      expect(tf.getBackend()).toBe(backendName());
      for (const shape of SHAPES) {
        const n = NORMS[shape[3]!]!;
        // First other values of the same shape, so a program that writes nothing would read a
        // pooled buffer of wrong values, not the right ones left over.
        const other = wireValues(wire, everyByte(size(shape), 91));
        await read(sendPacked({ dtype: wire, values: other.values, shape } as Parameters<typeof sendPacked>[0], n), context);
        const { values, decoded } = wireValues(wire, everyByte(size(shape)));
        gpuDevice()?.pushErrorScope('validation');
        const out = sendPacked({ dtype: wire, values, shape } as Parameters<typeof sendPacked>[0], n);
        expect(out.shape).toEqual([...shape]);
        const device = await read(out, context);
        expect((await gpuDevice()?.popErrorScope())?.message ?? null).toBeNull();
        expectMatches(device, decoded, n, `${wire} [${shape.join(',')}]`);
      }
    });
  }

  it("the scalar program ('scalar') gives the vec4 programs' bits", async () => {
    const context = contextOf();
    for (const wire of ['uint8', 'int8', 'float16'] as const) {
      const shape = [1, 5, 7, 3];
      const { values } = wireValues(wire, everyByte(size(shape)));
      const packed = tf.tensor1d(
        new Int32Array(
          new Uint8Array([...new Uint8Array(values.buffer, values.byteOffset, values.byteLength), 0, 0, 0, 0]).buffer,
          0,
          Math.ceil(values.byteLength / 4),
        ),
        'int32',
      );
      const run = (program: 'scalar' | 'vec4') => {
        const attrs: NormalizePackedAttrs = { shape, wire, mean: IMAGENET_NORMALIZATION.mean, std: IMAGENET_NORMALIZATION.std, program };
        return tf.engine().runKernel(NORMALIZE_PACKED_BYTES, { packed }, attrs as unknown as tf.NamedAttrMap) as tf.Tensor;
      };
      const scalar = await read(run('scalar'), context);
      expect(await read(run('vec4'), context), wire).toEqual(scalar);
      packed.dispose();
    }
  });

  it('every wire type of encodePixels + sendPayload, and wireDtypeTransfer, gives the per-channel model input', async () => {
    const context = contextOf();
    const shape = [2, 5, 7, 3];
    const pixels = everyByte(size(shape));
    const exact = reference(Float64Array.from(pixels), IMAGENET_NORMALIZATION);
    for (const dtype of WIRE_DTYPES) {
      const { payload, deviceNormalization } = encodePixels(dtype, pixels, shape, IMAGENET_NORMALIZATION);
      const sent = await read(sendPayload(context, payload, deviceNormalization), context);
      const staged = wireDtypeTransfer(context, dtype, IMAGENET_NORMALIZATION);
      const throughStages = await read(stagedToDevice(staged, pixels, shape), context);
      for (const [how, values] of [
        ['encodePixels + sendPayload', sent],
        ['wireDtypeTransfer', throughStages],
      ] as const) {
        const what = `${dtype} through ${how}`;
        if (dtype === 'float16') {
          // Normalized on the host, then rounded to half: within half's rounding of each value.
          const beyond = [...values].filter((v, i) => Math.abs(v - exact[i]!) > float16RoundingBound(exact[i]!));
          expect(beyond, what).toEqual([]);
        } else if (dtype === 'float32') {
          expect(values, what).toEqual(exact); // normalized on the host, sent as is
        } else {
          const decoded = dtype === 'uint8' ? Float64Array.from(pixels) : Float64Array.from(centerPixels(pixels));
          expectMatches(values, decoded, deviceNormalization as ChannelNormalization, what);
        }
      }
    }
  });

  it('refuses a per-channel normalization that does not fit the last axis, or a std of 0', () => {
    const values = everyByte(12);
    expect(() => sendPacked({ dtype: 'uint8', values, shape: [1, 2, 2, 3] }, { mean: [1, 2], std: [1, 1] })).toThrow(/2 channels, the data 3/);
    expect(() => sendPacked({ dtype: 'uint8', values, shape: [1, 2, 2, 3] }, { mean: [1, 2, 3], std: [1, 0, 1] })).toThrow(/std must not be 0/);
    expect(() => encodePixels('float32', values, [4, 3], { mean: [1, 2, 3, 4], std: [1, 1, 1, 1] })).toThrow(/4 channels, the data 3/);
  });
}

describe('per-channel decode on the suite backend', () => {
  let context: BackendContext;
  beforeAll(async () => {
    context = await useBackend();
  });
  perChannelSuite(
    () => context.name,
    () => context,
  );
});

describe.each(['cpu', 'wasm'] as const)('per-channel decode on the %s backend', (name) => {
  let previous: string | undefined;
  let context: BackendContext;
  beforeAll(async () => {
    previous = tf.getBackend() as string | undefined; // undefined when this file runs alone
    context = await (name === 'cpu' ? startCpu : startWasm)(`channel-normalize.test on ${name}`);
  });
  afterAll(async () => {
    if (previous) await tf.setBackend(previous);
  });
  perChannelSuite(
    () => name,
    () => context,
  );
});
