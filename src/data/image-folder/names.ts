/**
 * File names as bytes, as Linux keeps them, ordered and shown as torchvision sees them.
 *
 * Python gives `os.scandir` names as str decoded with the file system encoding (UTF-8) and the
 * 'surrogateescape' error handler (PEP 383): each byte of an invalid UTF-8 sequence becomes the
 * lone surrogate U+DC80..U+DCFF (byte 0x80..0xFF; bytes below 0x80 are always valid). Python's
 * `sorted` then compares those str by code point. So the order is NOT the bytes' order: an
 * undecodable byte 0xFF (U+DCFF) sorts before a valid U+E000..U+10FFFF (bytes EE.., EF.., F0..F4)
 * and after every valid code point below U+D800 (e.g. 'é', bytes C3 A9, sorts before byte 0x80
 * alone). Checked with Python 3.11: b'\xed\xa0\x80a\xe2\x82A'.decode('utf-8', 'surrogateescape')
 * is U+DCED U+DCA0 U+DC80 'a' U+DCE2 U+DC82 'A' (an encoded surrogate is invalid too).
 */

/** The code point of the valid UTF-8 sequence at `i`, and its length; null if none starts there (RFC 3629). */
function utf8At(bytes: Uint8Array, i: number): [number, number] | null {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return [b0, 1];
  const cont = (k: number, lo = 0x80, hi = 0xbf): number | null => {
    const b = bytes[i + k];
    return b !== undefined && b >= lo && b <= hi ? b & 0x3f : null;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    return c1 === null ? null : [((b0 & 0x1f) << 6) | c1, 2];
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    // E0: no overlong forms (A0..BF); ED: no surrogates (80..9F).
    const c1 = cont(1, b0 === 0xe0 ? 0xa0 : 0x80, b0 === 0xed ? 0x9f : 0xbf);
    const c2 = c1 === null ? null : cont(2);
    return c1 === null || c2 === null ? null : [((b0 & 0x0f) << 12) | (c1 << 6) | c2, 3];
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    // F0: no overlong forms (90..BF); F4: nothing above U+10FFFF (80..8F).
    const c1 = cont(1, b0 === 0xf0 ? 0x90 : 0x80, b0 === 0xf4 ? 0x8f : 0xbf);
    const c2 = c1 === null ? null : cont(2);
    const c3 = c2 === null ? null : cont(3);
    return c1 === null || c2 === null || c3 === null ? null : [((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4];
  }
  return null;
}

/**
 * The code points Python's `bytes.decode('utf-8', 'surrogateescape')` gives. Escaping each byte
 * that starts no valid sequence and going on at the next byte is the same as escaping CPython's
 * maximal invalid subparts byte by byte: the bytes after a subpart's first are continuation
 * bytes, which start no valid sequence either.
 */
export function surrogateEscapedCodePoints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; ) {
    const valid = utf8At(bytes, i);
    if (valid) {
      out.push(valid[0]);
      i += valid[1];
    } else {
      out.push(0xdc00 + bytes[i]!);
      i++;
    }
  }
  return out;
}

/** Python's `sorted()` order of two names given as bytes: by code point of their surrogate-escaped decoding. */
export function compareNames(a: Uint8Array, b: Uint8Array): number {
  const [x, y] = [surrogateEscapedCodePoints(a), surrogateEscapedCodePoints(b)];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** Whether `bytes` is valid UTF-8 throughout. */
export function isUtf8(bytes: Uint8Array): boolean {
  return surrogateEscapedCodePoints(bytes).every((c) => c < 0xdc80 || c > 0xdcff);
}

/**
 * A name or path for messages and run records: valid UTF-8 as text, each undecodable byte as
 * `\xNN` and a backslash as `\\` (so the escape is never ambiguous, as in Python's repr). Control
 * characters are left to `printable` (media-errors.ts), which every message goes through.
 */
export function displayName(bytes: Uint8Array): string {
  let out = '';
  for (const c of surrogateEscapedCodePoints(bytes)) {
    if (c >= 0xdc80 && c <= 0xdcff) out += `\\x${(c - 0xdc00).toString(16)}`;
    else if (c === 0x5c) out += '\\\\';
    else out += String.fromCodePoint(c);
  }
  return out;
}
