import { describe, expect, it } from 'vitest';
import { compareNames, displayName, isUtf8, surrogateEscapedCodePoints } from './names.js';

const b = (...bytes: number[]) => Buffer.from(bytes);

describe('names as bytes', () => {
  it("decodes as Python's surrogateescape: each byte of an invalid sequence to U+DC80..U+DCFF", () => {
    // Python 3.11: b'\xed\xa0\x80a\xe2\x82A\xf0\x9f\x98'.decode('utf-8', 'surrogateescape')
    expect(surrogateEscapedCodePoints(b(0xed, 0xa0, 0x80, 0x61, 0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98))).toEqual([
      0xdced, 0xdca0, 0xdc80, 0x61, 0xdce2, 0xdc82, 0x41, 0xdcf0, 0xdc9f, 0xdc98,
    ]);
    expect(surrogateEscapedCodePoints(Buffer.from('é\u{1F600}'))).toEqual([0xe9, 0x1f600]);
    // Overlong forms and code points above U+10FFFF are invalid too.
    expect(surrogateEscapedCodePoints(b(0xc0, 0xaf, 0xf4, 0x90, 0x80, 0x80))).toEqual([0xdcc0, 0xdcaf, 0xdcf4, 0xdc90, 0xdc80, 0xdc80]);
    expect(isUtf8(Buffer.from('caf\u00e9'))).toBe(true);
    expect(isUtf8(b(0x63, 0xe9))).toBe(false);
  });

  it("sorts as Python's sorted() of those str, which is not the bytes' order", () => {
    const names = [b(0xff, 0x2e), Buffer.from('\ue000.'), b(0x80, 0x2e), Buffer.from('\u00e9.'), Buffer.from('z.'), Buffer.from('\u{1F600}.')];
    // Bytes order: z (7a), \x80, é (c3), U+E000 (ee), 😀 (f0), \xff; Python: z, é, \x80 (U+DC80), \xff (U+DCFF), U+E000, 😀.
    expect(names.sort(compareNames).map(displayName)).toEqual(['z.', '\u00e9.', '\\x80.', '\\xff.', '\ue000.', '\u{1F600}.']);
    expect(compareNames(Buffer.from('ab'), Buffer.from('a'))).toBeGreaterThan(0);
    expect(compareNames(Buffer.from('a'), Buffer.from('a'))).toBe(0);
  });

  it('shows undecodable bytes as \\xNN and a backslash doubled, never mangled', () => {
    expect(displayName(b(0x63, 0x61, 0x66, 0xe9))).toBe('caf\\xe9');
    expect(displayName(Buffer.from('a\\xe9'))).toBe('a\\\\xe9');
    expect(displayName(Buffer.from('cafe\u0301/\u{1F600}.png'))).toBe('cafe\u0301/\u{1F600}.png');
  });
});
