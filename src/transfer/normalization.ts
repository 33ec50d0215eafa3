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
