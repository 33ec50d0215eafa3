/**
 * Bytes viewed as little-endian 32-bit words, the only way to send 1 byte per pixel through
 * tfjs (it has no uint8 dtype: a Uint8Array becomes int32, 4 bytes per pixel).
 */
export interface PackedBytes {
  readonly words: Int32Array;
  /** Pixels carried; the last word may hold up to 3 padding bytes beyond it. */
  readonly byteCount: number;
  /** True when `words` views the caller's buffer; false when it had to be copied to pad or align. */
  readonly zeroCopy: boolean;
}

/** Views pixel bytes as 32-bit words without copying when aligned, else copies into a zero-padded buffer. */
export function packBytes(bytes: Uint8Array): PackedBytes {
  const wordCount = Math.ceil(bytes.length / 4);
  if (bytes.byteOffset % 4 === 0 && bytes.length % 4 === 0) {
    return { words: new Int32Array(bytes.buffer, bytes.byteOffset, wordCount), byteCount: bytes.length, zeroCopy: true };
  }
  const words = new Int32Array(wordCount);
  new Uint8Array(words.buffer).set(bytes);
  return { words, byteCount: bytes.length, zeroCopy: false };
}

/** The bytes of packed words (little-endian, as WebGPU and typed arrays on x64/arm64 store them). */
export function unpackedView(words: Int32Array, byteCount: number): Uint8Array {
  return new Uint8Array(words.buffer, words.byteOffset, byteCount);
}
