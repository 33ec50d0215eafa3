import { describe, expect, it } from 'vitest';
import { encodeIdx, IdxFormatError, parseIdx } from './idx.js';

describe('encodeIdx / parseIdx', () => {
  it('round-trips and writes the MNIST magic numbers', () => {
    const data = Uint8Array.from({ length: 2 * 3 * 4 }, (_, i) => i * 10);
    const file = encodeIdx([2, 3, 4], data);
    expect(file.length).toBe(16 + 24);
    expect(new DataView(file.buffer).getUint32(0, false)).toBe(2051);
    expect(new DataView(encodeIdx([5], new Uint8Array(5)).buffer).getUint32(0, false)).toBe(2049);
    const parsed = parseIdx(file, 'x');
    expect(parsed.dims).toEqual([2, 3, 4]);
    expect(parsed.data).toEqual(data);
  });

  it('parses a view into a larger buffer (e.g. a pooled Buffer) at its offset', () => {
    const file = encodeIdx([3], Uint8Array.of(7, 8, 9));
    const padded = new Uint8Array(file.length + 5);
    padded.set(file, 3);
    expect(Array.from(parseIdx(padded.subarray(3, 3 + file.length), 'x').data)).toEqual([7, 8, 9]);
  });

  it('rejects bad dims or data length when encoding', () => {
    expect(() => encodeIdx([2, 2], new Uint8Array(3))).toThrow(RangeError);
    expect(() => encodeIdx([], new Uint8Array(1))).toThrow(RangeError);
    expect(() => encodeIdx([-1], new Uint8Array(0))).toThrow(RangeError);
  });
});

describe('parseIdx errors name the file and the problem', () => {
  const good = encodeIdx([2, 2], Uint8Array.of(1, 2, 3, 4));
  const withByte = (index: number, value: number): Uint8Array => {
    const copy = good.slice();
    copy[index] = value;
    return copy;
  };
  const cases: Array<[string, Uint8Array, RegExp]> = [
    ['too short', Uint8Array.of(0, 0, 8), /only 3 bytes/],
    ['nonzero magic', withByte(0, 0x1f), /bad magic 0x1f 0x00 0x08 0x02/],
    ['float32', withByte(2, 0x0d), /0x0d \(float32\) is not supported/],
    ['unknown type', withByte(2, 0x42), /unknown element type code 0x42/],
    ['zero dims', Uint8Array.of(0, 0, 8, 0), /0 dimensions/],
    ['truncated header', good.subarray(0, 10), /truncated header: 2 dimensions need 12 header bytes/],
    ['truncated data', good.subarray(0, 14), /truncated: expected 4 bytes of data for dims \[2, 2\], found 2/],
    ['trailing bytes', Uint8Array.from([...good, 0, 0, 0]), /3 trailing bytes/],
  ];
  for (const [name, bytes, pattern] of cases) {
    it(name, () => {
      const fail = (): unknown => parseIdx(bytes, 'some/file-idx');
      expect(fail).toThrow(IdxFormatError);
      expect(fail).toThrow(pattern);
      expect(fail).toThrow(/^some\/file-idx: /);
      expect(fail).toThrow(/Re-download/);
    });
  }
});
