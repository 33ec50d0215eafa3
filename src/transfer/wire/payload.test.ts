import { describe, expect, it } from 'vitest';
import { float16BitsToFloat32, float16RoundingBound } from './float16.js';
import { ARTICLE_NORMALIZATION, normalizeOnHost } from '../normalization.js';
import { packBytes } from './packed-bytes.js';
import { centerPixels, checkPayload, decodeOnHost, encodePixels, viewPackedWords } from './payload.js';
import { WIRE_BYTES, WIRE_DTYPES, wireByteLength } from '../wire-dtypes.js';

// Every byte value once, plus 3 more: 259 elements, so uint8/int8 words need padding.
const pixels = Uint8Array.from({ length: 259 }, (_, i) => i % 256);
const shape = [1, 7, 37, 1];

describe('wire sizes', () => {
  it('is 1, 1, 2, 4 bytes per element, padded to whole words', () => {
    expect(WIRE_DTYPES.map((d) => WIRE_BYTES[d])).toEqual([1, 1, 2, 4]);
    // The article batch: 64 x 28 x 28 = 50,176 elements.
    expect(WIRE_DTYPES.map((d) => wireByteLength(d, 50_176))).toEqual([50_176, 50_176, 100_352, 200_704]);
    expect(WIRE_DTYPES.map((d) => wireByteLength(d, 259))).toEqual([260, 260, 520, 1036]);
  });
});

describe('encodePixels', () => {
  it('centres int8 pixels as x - 128 for every byte value', () => {
    const centred = centerPixels(pixels);
    expect([...centred]).toEqual([...pixels].map((x) => x - 128));
  });

  it('gives every type the same model input after its own decode', () => {
    const reference = normalizeOnHost(pixels, ARTICLE_NORMALIZATION);
    for (const dtype of WIRE_DTYPES) {
      const { payload, deviceNormalization } = encodePixels(dtype, pixels, shape, ARTICLE_NORMALIZATION);
      expect(payload.values.byteLength).toBe(pixels.length * WIRE_BYTES[dtype]);
      const decoded = decodeOnHost(payload.dtype, payload.values, deviceNormalization);
      for (let i = 0; i < reference.length; i++) {
        const r = reference[i]!;
        // uint8/int8/float32 are exact up to one float32 rounding of the normalization
        // (int8's mean -0.5 is a different, equally exact, float64 computation); float16
        // differs by its own rounding.
        const bound = dtype === 'float16' ? float16RoundingBound(r) : 0;
        expect(Math.abs(decoded[i]! - r), `${dtype} element ${i}`).toBeLessThanOrEqual(bound);
      }
    }
  });

  it('keeps uint8 pixels without copying', () => {
    expect(encodePixels('uint8', pixels, shape, ARTICLE_NORMALIZATION).payload.values).toBe(pixels);
  });
});

describe('decodeOnHost', () => {
  it('decodes packed words of every packed type exactly, ignoring the padding', () => {
    const halves = Uint16Array.from({ length: 5 }, (_, i) => [0x3c00, 0xc000, 0x0001, 0x7bff, 0x3555][i]!);
    const cases = [
      { dtype: 'uint8', values: pixels, expected: [...pixels] },
      { dtype: 'int8', values: centerPixels(pixels), expected: [...pixels].map((x) => x - 128) },
      { dtype: 'float16', values: halves, expected: [...halves].map(float16BitsToFloat32) },
    ] as const;
    for (const { dtype, values, expected } of cases) {
      const packed = packBytes(values);
      // Fill the padding with garbage: it must not show up in the decoded values.
      new Uint8Array(packed.words.buffer).fill(0xab, packed.byteCount);
      const view = viewPackedWords(packed.words, dtype, values.length);
      expect([...decodeOnHost(dtype, view)]).toEqual(expected);
    }
  });

  it('refuses a payload whose values do not fill its shape or have the wrong type', () => {
    expect(() => checkPayload({ dtype: 'uint8', values: new Uint8Array(3), shape: [2, 2] })).toThrow(RangeError);
    expect(() => checkPayload({ dtype: 'int8', values: new Uint8Array(4) as unknown as Int8Array, shape: [4] })).toThrow(TypeError);
  });
});
