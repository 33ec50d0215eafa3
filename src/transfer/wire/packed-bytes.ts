/**
 * The bytes of a typed array viewed as little-endian 32-bit words, the only way to send fewer
 * than 4 bytes per element through tfjs (it has no uint8, int8 or float16 dtype: a Uint8Array
 * becomes int32, 4 bytes per element).
 */
export interface PackedBytes {
  readonly words: Int32Array;
  /** Payload bytes carried; the last word may hold up to 3 padding bytes beyond them. */
  readonly byteCount: number;
  /** True when `words` views the caller's buffer; false when it had to be copied to pad or align. */
  readonly zeroCopy: boolean;
}

/**
 * Views a typed array's bytes as 32-bit words without copying when its offset and length are
 * multiples of 4; otherwise copies them into a zero-padded buffer.
 */
export function packBytes(view: Uint8Array | Int8Array | Uint16Array): PackedBytes {
  const byteCount = view.byteLength;
  const wordCount = Math.ceil(byteCount / 4);
  if (view.byteOffset % 4 === 0 && byteCount % 4 === 0) {
    return { words: new Int32Array(view.buffer, view.byteOffset, wordCount), byteCount, zeroCopy: true };
  }
  const words = new Int32Array(wordCount);
  new Uint8Array(words.buffer).set(new Uint8Array(view.buffer, view.byteOffset, byteCount));
  return { words, byteCount, zeroCopy: false };
}

/** The bytes of packed words (little-endian, as WebGPU and typed arrays on x64/arm64 store them). */
export function unpackedView(words: Int32Array, byteCount: number): Uint8Array {
  return new Uint8Array(words.buffer, words.byteOffset, byteCount);
}
