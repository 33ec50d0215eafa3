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

/**
 * Per-channel normalization on the 0..255 scale, channels last: element i belongs to channel
 * i % C (C = mean.length). torchvision's `Normalize(mean, std)` times 255 (its inputs are in
 * [0, 1] after ToTensor, raw pixels here), as DALI's crop_mirror_normalize takes it.
 */
export interface ChannelNormalization {
  readonly mean: readonly number[];
  readonly std: readonly number[];
}

/** Either form the wire API takes: one mean/std for every element, or one per channel. */
export type AnyNormalization = Normalization | ChannelNormalization;

/** Whether `n` is per channel (arrays), not one scalar pair. */
export function isPerChannel(n: AnyNormalization): n is ChannelNormalization {
  return typeof n.mean !== 'number';
}

/** Just the mean and std of an object that carries them (a kernel's attributes), copied. */
export function normalizationOf(n: AnyNormalization): AnyNormalization {
  return isPerChannel(n) ? { mean: [...n.mean], std: [...n.std] } : { mean: n.mean, std: n.std };
}

/** Whether a per-channel normalization leaves every value unchanged (mean 0 and std 1 in every channel): no normalization. */
export function isIdentityChannels(n: ChannelNormalization): boolean {
  return n.mean.every((m) => m === 0) && n.std.every((s) => s === 1);
}

/**
 * Checks a per-channel normalization: as many std as mean entries, finite numbers, no std of 0
 * (a division by zero would give Infinity/NaN on one path and an error on another); when
 * `channels` is given, exactly that many. Throws RangeError saying which.
 */
export function checkChannelNormalization(n: ChannelNormalization, channels?: number): ChannelNormalization {
  if (n.mean.length === 0) throw new RangeError('a per-channel normalization needs at least one channel');
  if (n.std.length !== n.mean.length) throw new RangeError(`mean has ${n.mean.length} channels, std ${n.std.length}`);
  if (channels !== undefined && n.mean.length !== channels) {
    throw new RangeError(`the normalization has ${n.mean.length} channels, the data ${channels} (its last axis)`);
  }
  if (![...n.mean, ...n.std].every(Number.isFinite)) throw new RangeError('mean and std must be finite numbers');
  if (n.std.some((s) => s === 0)) throw new RangeError('std must not be 0');
  return n;
}

/**
 * The scalar pair when every channel has the same mean and the same std (then per-channel and
 * scalar arithmetic are the same operations on the same constants, so the same bits), else null.
 */
export function uniformChannels(n: AnyNormalization): Normalization | null {
  if (!isPerChannel(n)) return n;
  const [mean, std] = [n.mean[0]!, n.std[0]!];
  return n.mean.every((m) => m === mean) && n.std.every((s) => s === std) ? { mean, std } : null;
}

/** The same affine map expressed on shifted inputs: (x - m) / s = ((x - d) - (m - d)) / s, per channel. */
export function shiftMean<N extends AnyNormalization>(n: N, by: number): N {
  if (!isPerChannel(n)) return { ...n, mean: n.mean - by };
  return { ...n, mean: n.mean.map((m) => m - by) };
}

/**
 * ImageNet normalization on the 0..255 scale: torchvision's mean (0.485, 0.456, 0.406) and std
 * (0.229, 0.224, 0.225) for inputs in [0, 1] (torchvision.models documentation), times 255 as in
 * DALI's crop_mirror_normalize examples. The default of `gtp perf --shape` (3 channels) and
 * `--image-folder` when no --mean/--std is given.
 */
export const IMAGENET_NORMALIZATION = {
  mean: [0.485 * 255, 0.456 * 255, 0.406 * 255],
  std: [0.229 * 255, 0.224 * 255, 0.225 * 255],
} as const satisfies ChannelNormalization;

/**
 * Normalizes channels-last uint8 pixels with one 256-entry float32 table per channel (each
 * entry (x - mean) / std computed in float64 and rounded once, so it equals the arithmetic of
 * normalizeOnHost); a scalar normalization takes the 4-pixels-per-read table path.
 */
export function normalizeChannelsOnHost(pixels: Uint8Array, n: AnyNormalization, into: Float32Array = new Float32Array(pixels.length)): Float32Array {
  if (into.length !== pixels.length) throw new RangeError(`into has ${into.length} elements, pixels ${pixels.length}`);
  if (isPerChannel(n)) checkWholePixels(pixels.length, checkChannelNormalization(n).mean.length);
  const uniform = uniformChannels(n);
  if (uniform) return normalizeWithTable(pixels, normalizationTable(uniform), into);
  const { mean, std } = n as ChannelNormalization;
  const channels = mean.length;
  const tables = mean.map((m, c) => normalizationTable({ mean: m, std: std[c]! }));
  for (let i = 0, c = 0; i < pixels.length; i++, c = c + 1 === channels ? 0 : c + 1) into[i] = tables[c]![pixels[i]!]!;
  return into;
}

/** Refuses a count of values that is not a whole number of pixels of `channels` channels. */
export function checkWholePixels(count: number, channels: number): void {
  if (count % channels !== 0) throw new RangeError(`${count} values are not whole pixels of ${channels} channels`);
}

/**
 * A per-channel normalization in words, for metric details: whose (the user's --mean/--std, or
 * the default) and its constants, e.g. "normalized per channel with ImageNet's (the default):
 * mean 123.675,116.28,103.53, std 58.395,57.12,57.375 (0-255 scale)".
 */
export function normalizationInWords(n: ChannelNormalization, given: boolean): string {
  const list = (xs: readonly number[]) => xs.map((x) => Number(x.toPrecision(6))).join(',');
  const whose = given ? 'your --mean/--std' : n === IMAGENET_NORMALIZATION ? "ImageNet's (the default)" : 'the default';
  if (isIdentityChannels(n)) return `not normalized (${whose}: mean ${list(n.mean)}, std ${list(n.std)}): the pixel values as float32`;
  return `normalized per channel with ${whose}: mean ${list(n.mean)}, std ${list(n.std)} (0-255 scale)`;
}
