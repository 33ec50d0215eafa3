/**
 * PBM/PGM/PPM (P1-P6) decoded as Pillow 9.4's PpmImagePlugin, then `convert('RGB')`.
 *
 * Hand-written, not a library: sharp's libvips build has no PPM loader, and the one npm netpbm
 * reader (@thi.ng/pixel-io-netpbm 2.1) reads no P1-P3 and no 16-bit PPM, needs line breaks in
 * the header, and scales maxval by truncation where Pillow rounds. What Pillow does (read in
 * PIL/PpmImagePlugin.py of Debian 12's python3-pil 9.4.0, checked on files there):
 * - header: magic, then width, height and (not for P1/P4) maxval, each a token of at most 10
 *   characters after whitespace (space, \t, \n, \v, \f, \r) and '#' comments to end of line;
 *   the data starts right after the one whitespace byte that ends the last token. 0 < maxval < 65536.
 * - P4: 1 bit a pixel, rows padded to a byte, 1 = black. P1: '0'/'1' characters, 1 = black.
 * - P5/P6 with maxval 255: the bytes as they are. P5 with maxval 65535: big-endian 16-bit values
 *   into mode 'I'. Any other maxval: 1 byte a sample below 256, else 2 (big-endian); each
 *   `min(out, round(v / maxval * out))` with out = 65535 for a PGM with maxval > 255 (mode 'I'),
 *   else 255. P2/P3 (plain): the same formula (a value above maxval is an error).
 * - convert('RGB'): 'I' is clipped to 0..255 (i2rgb in libImaging/Convert.c), NOT rescaled: a
 *   16-bit PGM of values 300..65535 is white. Grey and 1-bit are replicated to R=G=B.
 * Python's round() is round-half-to-even on the double `v / maxval * out`.
 */
import type { RgbImage } from '../coco/decode-image.js';

/** A PNM file Pillow would refuse (or that is cut short); the message says what is wrong in one line. */
export class PnmError extends Error {
  override readonly name = 'PnmError';
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

/** What the header says, and where the data starts. */
export interface PnmHeader {
  readonly kind: 1 | 2 | 3 | 4 | 5 | 6;
  readonly width: number;
  readonly height: number;
  /** 1 for P1/P4. */
  readonly maxval: number;
  readonly dataStart: number;
}

/** Whether `bytes` starts as a PNM file Pillow takes (P1..P6 then whitespace). */
export function isPnm(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0x50 && bytes[1]! >= 0x31 && bytes[1]! <= 0x36 && WHITESPACE.has(bytes[2]!);
}

/** Parses the header as Pillow's _read_magic / _read_token do. */
export function readPnmHeader(bytes: Uint8Array): PnmHeader {
  if (!isPnm(bytes)) throw new PnmError('not a PBM/PGM/PPM file (no P1..P6 magic)');
  const kind = (bytes[1]! - 0x30) as PnmHeader['kind'];
  let pos = 3;
  const token = (): number => {
    let text = '';
    for (;;) {
      const c = bytes[pos++];
      if (c === undefined) break;
      if (WHITESPACE.has(c)) {
        if (text === '') continue;
        break;
      }
      if (c === 0x23) {
        while (pos < bytes.length && bytes[pos] !== 0x0a && bytes[pos] !== 0x0d) pos++;
        pos++;
        continue;
      }
      text += String.fromCharCode(c);
      if (text.length > 10) throw new PnmError(`a header token is longer than 10 characters (${text}...)`);
    }
    if (text === '') throw new PnmError('the header ends before width, height and maxval');
    if (!/^\d+$/.test(text)) throw new PnmError(`header value '${text}' is not a number`);
    return Number(text);
  };
  const width = token();
  const height = token();
  if (width < 1 || height < 1) throw new PnmError(`size ${width}x${height} has no pixels`);
  const maxval = kind === 1 || kind === 4 ? 1 : token();
  if (maxval < 1 || maxval > 65535) throw new PnmError(`maxval ${maxval} is not in 1..65535`);
  return { kind, width, height, maxval, dataStart: pos };
}

/** Python's round() of a double: half to even. */
function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
}

/** The samples as Pillow's mode holds them (L/RGB/1 as 0..255; 'I' as 0..65535) and that mode's range. */
function samples(bytes: Uint8Array, h: PnmHeader): { values: Uint8Array | Uint32Array; bands: number } {
  const { kind, width, height, maxval } = h;
  const bands = kind === 3 || kind === 6 ? 3 : 1;
  const count = width * height * bands;
  const modeI = bands === 1 && maxval > 255 && kind !== 1 && kind !== 4;
  const outMax = modeI ? 65535 : 255;
  const values = modeI ? new Uint32Array(count) : new Uint8Array(count);
  const cut = (got: number) => new PnmError(`the data ends after ${got} of ${count} values`);
  let p = h.dataStart;
  if (kind === 4) {
    const rowBytes = Math.ceil(width / 8);
    if (bytes.length - p < rowBytes * height) throw cut(Math.floor((bytes.length - p) / rowBytes) * width);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) values[y * width + x] = (bytes[p + y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 0 : 255;
    return { values, bands };
  }
  if (kind === 1) {
    // PpmPlainDecoder._decode_bitonal: comments out, whitespace out, then one character a pixel.
    let n = 0;
    while (n < count && p < bytes.length) {
      const c = bytes[p++]!;
      if (c === 0x23) {
        while (p < bytes.length && bytes[p] !== 0x0a && bytes[p] !== 0x0d) p++;
      } else if (!WHITESPACE.has(c)) {
        if (c !== 0x30 && c !== 0x31) throw new PnmError(`invalid P1 value '${String.fromCharCode(c)}' (only 0 and 1)`);
        values[n++] = c === 0x31 ? 0 : 255;
      }
    }
    if (n < count) throw cut(n);
    return { values, bands };
  }
  const scale = (v: number) => Math.min(outMax, roundHalfEven((v / maxval) * outMax));
  if (kind === 2 || kind === 3) {
    let n = 0;
    let text = '';
    const flush = () => {
      if (text === '' || n >= count) return;
      if (text.length > 10 || !/^\d+$/.test(text)) throw new PnmError(`invalid plain value '${text.slice(0, 11)}'`);
      const v = Number(text);
      if (v > maxval) throw new PnmError(`value ${v} is above maxval ${maxval}`);
      values[n++] = scale(v);
      text = '';
    };
    while (n < count && p < bytes.length) {
      const c = bytes[p++]!;
      if (c === 0x23) {
        flush();
        while (p < bytes.length && bytes[p] !== 0x0a && bytes[p] !== 0x0d) p++;
      } else if (WHITESPACE.has(c)) flush();
      else text += String.fromCharCode(c);
    }
    flush();
    if (n < count) throw cut(n);
    return { values, bands };
  }
  const wide = maxval > 255;
  const size = wide ? 2 : 1;
  if (bytes.length - p < count * size) throw cut(Math.floor((bytes.length - p) / size));
  if (maxval === 255) values.set(bytes.subarray(p, p + count));
  else if (maxval === 65535 && modeI) for (let i = 0; i < count; i++) values[i] = (bytes[p + 2 * i]! << 8) | bytes[p + 2 * i + 1]!;
  else for (let i = 0; i < count; i++) values[i] = scale(wide ? (bytes[p + 2 * i]! << 8) | bytes[p + 2 * i + 1]! : bytes[p + i]!);
  return { values, bands };
}

/** A PNM file as PIL's `Image.open(f).convert('RGB')` gives it. */
export function decodePnm(bytes: Uint8Array): RgbImage {
  const header = readPnmHeader(bytes);
  const { values, bands } = samples(bytes, header);
  const n = header.width * header.height;
  const pixels = new Uint8Array(n * 3);
  if (bands === 3) pixels.set(values);
  else
    for (let i = 0; i < n; i++) {
      const v = Math.min(255, values[i]!);
      pixels[3 * i] = v;
      pixels[3 * i + 1] = v;
      pixels[3 * i + 2] = v;
    }
  return { pixels, height: header.height, width: header.width };
}
