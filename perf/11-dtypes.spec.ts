// Article section 11: uint8, int8, float16 and float32 on the wire, each at its true size
// (1, 1, 2, 4 bytes per element) and decoded into the same float32 model input on the device.
// Correctness and exact bytes here; times in 11-dtypes.bench.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LeakCheck,
  qualityMetric,
  recordMetrics,
  useBackend,
  maxAbsDiff,
  firstArticleBatch,
  decodeWords,
  sendAndRead,
  FLOAT16_MIN_NORMAL,
  float16BitsToFloat32,
  float16RoundingBound,
  fromFloat16Array,
  ARTICLE_NORMALIZATION,
  normalizeOnHost,
  packBytes,
  centerPixels,
  encodePixels,
  WIRE_DTYPES,
  wireByteLength,
  packedBytesSent,
  itLeavesNoTensors,
  type BackendContext,
  type Batch,
  type WireDtype,
} from 'gpu-transfer-perf';

/** Bytes per [64,28,28,1] batch (50,176 pixels) at 1, 1, 2 and 4 bytes per element. */
const ARTICLE_BATCH_BYTES: Record<WireDtype, number> = { uint8: 50_176, int8: 50_176, float16: 100_352, float32: 200_704 };
/**
 * Largest allowed |device - float64 host reference| for the normalized batch, |y| <= 1:
 * uint8/int8 divide on the device, where WGSL allows 2.5 ULP for f32 division (WGSL spec,
 * "Floating Point Accuracy"; an ULP below 1 is at most 2^-24), so 1e-6 leaves room; float32
 * crosses as is (0); float16 is off by its own rounding, at most half a float16 spacing, 2^-12
 * for values in [0.5, 1] (checked per element below with float16RoundingBound).
 */
const MAX_ERROR: Record<WireDtype, number> = { uint8: 1e-6, int8: 1e-6, float16: 2 ** -12, float32: 0 };

let context: BackendContext;
let batch: Batch;
let leaks: LeakCheck;

beforeAll(async () => {
  context = await useBackend();
  batch = await firstArticleBatch();
  leaks = new LeakCheck();
});

describe('data types on the wire (section 11)', () => {
  for (const dtype of WIRE_DTYPES) {
    it(`${dtype}: ${ARTICLE_BATCH_BYTES[dtype].toLocaleString('en-US')} B per [64,28,28,1] batch, decoded on the device to (x - 127.5) / 127.5`, async ({
      task,
    }) => {
      const { payload, deviceNormalization } = encodePixels(dtype, batch.images, batch.shape, ARTICLE_NORMALIZATION);
      const { bytes, values, shape } = await sendAndRead(context, payload, deviceNormalization);
      expect(bytes.dataBytes).toBe(ARTICLE_BATCH_BYTES[dtype]);
      expect(bytes.dataBytes).toBe(wireByteLength(dtype, batch.images.length));
      expect(shape).toEqual([64, 28, 28, 1]);

      const reference = normalizeOnHost(batch.images, ARTICLE_NORMALIZATION);
      const error = maxAbsDiff(values, reference);
      expect(error).toBeLessThanOrEqual(MAX_ERROR[dtype]);
      if (payload.dtype === 'float16') {
        // The device widens each half exactly: all of the error is the host's rounding.
        expect(maxAbsDiff(values, fromFloat16Array(payload.values))).toBe(0);
        const beyond = [...reference].filter((r, i) => Math.abs(values[i]! - r) > float16RoundingBound(r));
        expect(beyond).toEqual([]);
      }
      await recordMetrics(
        task,
        qualityMetric(
          `dtypes.max-abs-diff.${dtype}`,
          error,
          { max: MAX_ERROR[dtype] },
          {
            detail: `largest |decoded on the device - float64 host (x - 127.5) / 127.5| over the article batch sent as ${dtype}`,
            labels: { dtype },
          },
        ),
      );
    });
  }

  it('decodes every uint8 and int8 byte value exactly, and garbage in the padding never reaches the output', async () => {
    // 259 elements: every byte value plus 3, so the last word holds 1 element and 3 padding bytes.
    const pixels = Uint8Array.from({ length: 259 }, (_, i) => i % 256);
    const cases = [
      { wire: 'uint8', bytes: pixels, expected: Float32Array.from(pixels) },
      { wire: 'int8', bytes: centerPixels(pixels), expected: Float32Array.from(pixels, (x) => x - 128) },
    ] as const;
    for (const { wire, bytes, expected } of cases) {
      const { words } = packBytes(bytes);
      new Uint8Array(words.buffer).fill(0xab, bytes.length); // padding: 0xAB, -85 as int8
      expect(await decodeWords(words, wire, [1, 7, 37, 1])).toEqual(expected);
    }
  });

  it('decodes every finite float16 exactly, subnormals within the flush-to-zero bound; padding never leaks', async () => {
    const halves: number[] = [];
    for (let h = 0; h < 0x10000; h++) if (((h >> 10) & 0x1f) !== 0x1f) halves.push(h); // no inf/NaN
    halves.push(0x3c00); // 63,489 halves: odd, so the last word is half padding
    const bits = Uint16Array.from(halves);
    const { words } = packBytes(bits);
    new Uint16Array(words.buffer).fill(0x7e00, bits.length); // padding: a NaN
    const values = await decodeWords(words, 'float16', [bits.length]);
    expect(values).toHaveLength(bits.length);
    const wrong: string[] = [];
    for (let i = 0; i < bits.length; i++) {
      const exact = float16BitsToFloat32(bits[i]!);
      const subnormal = exact !== 0 && Math.abs(exact) < FLOAT16_MIN_NORMAL;
      // WGSL lets implementations flush subnormal values to zero (WGSL spec, "Floating Point
      // Evaluation"), which moves them by less than the smallest normal.
      const ok = subnormal ? Math.abs(values[i]! - exact) < FLOAT16_MIN_NORMAL : Object.is(values[i], exact);
      if (!ok) wrong.push(`0x${bits[i]!.toString(16)} -> ${values[i]}`);
    }
    expect(wrong).toEqual([]);
  });

  it('sends element counts whose byte count is not a multiple of 4, padded to whole words where the words cross', async () => {
    // 3 x 5 x 7 x 1 = 105 pixels: 105, 105, 210 and 420 bytes -> 108, 108, 212 and 420 on the wire
    // where the packed words cross (webgpu, cpu, wasm); 105, 105, 210 and 420 where only the
    // payload's bytes do (tensorflow: one TF_UINT8 tensor made from them).
    const pixels = Uint8Array.from({ length: 105 }, (_, i) => (i * 37 + 11) % 256);
    const shape = [3, 5, 7, 1] as const;
    const reference = normalizeOnHost(pixels, ARTICLE_NORMALIZATION);
    const sent: Record<string, number> = {};
    for (const dtype of WIRE_DTYPES) {
      const { payload, deviceNormalization } = encodePixels(dtype, pixels, shape, ARTICLE_NORMALIZATION);
      const { bytes, values } = await sendAndRead(context, payload, deviceNormalization);
      sent[dtype] = bytes.dataBytes;
      expect(values).toHaveLength(105);
      expect(maxAbsDiff(values, reference)).toBeLessThanOrEqual(MAX_ERROR[dtype]);
    }
    const padded = { uint8: 108, int8: 108, float16: 212, float32: 420 };
    const payloadOnly = { uint8: 105, int8: 105, float16: 210, float32: 420 };
    const here = Object.fromEntries(WIRE_DTYPES.map((d) => [d, packedBytesSent(d, 105)]));
    expect([padded, payloadOnly]).toContainEqual(here);
    expect(sent).toEqual(here);
  });

  itLeavesNoTensors(() => leaks);
});
