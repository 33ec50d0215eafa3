/** Per-pixel affine normalization y = (x - mean) / std, on raw 0..255 pixel values. */
export interface Normalization {
  readonly mean: number;
  readonly std: number;
}

/**
 * The article's transform, ToTensor + Normalize((0.5,), (0.5,)): x/255 -> (v - 0.5)/0.5,
 * which on raw bytes is (x - 127.5) / 127.5, mapping 0..255 onto [-1, 1].
 */
export const ARTICLE_NORMALIZATION: Normalization = { mean: 127.5, std: 127.5 };

/** Normalizes raw pixels on the host into float32 (computed in float64, rounded once). */
export function normalizeOnHost(pixels: Uint8Array, n: Normalization, into?: Float32Array): Float32Array {
  const out = into ?? new Float32Array(pixels.length);
  const { mean, std } = n;
  for (let i = 0; i < pixels.length; i++) out[i] = (pixels[i]! - mean) / std;
  return out;
}

/** No normalization: the decoded values themselves (the device writes them without arithmetic). */
export const IDENTITY_NORMALIZATION: Normalization = { mean: 0, std: 1 };

/** Whether `n` leaves values unchanged. */
export function isIdentity(n: Normalization): boolean {
  return n.mean === 0 && n.std === 1;
}

/**
 * The 256 float32 values (x - mean) / std for x = 0..255, each computed in float64 and rounded
 * once: the same values normalizeOnHost writes, looked up instead of computed per pixel.
 */
export function normalizationTable(n: Normalization): Float32Array {
  const table = new Float32Array(256);
  for (let x = 0; x < 256; x++) table[x] = (x - n.mean) / n.std;
  return table;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Normalizes raw pixels through a 256-entry table (normalizationTable) into `into` (same
 * length). The table's float32 bit patterns are copied as int32 (no float conversions), four
 * pixels per 32-bit read where the pixels are 4-byte aligned: about 1.8x faster than the
 * arithmetic per pixel in V8 (measured on a 4.8 MB batch), with the same bits.
 */
export function normalizeWithTable(pixels: Uint8Array, table: Float32Array, into: Float32Array): Float32Array {
  if (table.length !== 256) throw new RangeError(`a pixel table has 256 entries, got ${table.length}`);
  if (into.length !== pixels.length) throw new RangeError(`into has ${into.length} elements, pixels ${pixels.length}`);
  const bits = new Int32Array(table.buffer, table.byteOffset, 256);
  const out = new Int32Array(into.buffer, into.byteOffset, into.length);
  let i = 0;
  if (LITTLE_ENDIAN && pixels.byteOffset % 4 === 0) {
    const words = new Uint32Array(pixels.buffer, pixels.byteOffset, pixels.length >>> 2);
    for (let j = 0; j < words.length; j++, i += 4) {
      const w = words[j]!;
      out[i] = bits[w & 0xff]!;
      out[i + 1] = bits[(w >>> 8) & 0xff]!;
      out[i + 2] = bits[(w >>> 16) & 0xff]!;
      out[i + 3] = bits[w >>> 24]!;
    }
  }
  for (; i < pixels.length; i++) out[i] = bits[pixels[i]!]!;
  return into;
}
