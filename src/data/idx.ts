/** The IDX format of the MNIST files: a big-endian header, then the elements row-major. */

/** Thrown for a file that is not a usable IDX file; the message names the file and the fix. */
export class IdxFormatError extends Error {
  override readonly name = 'IdxFormatError';
  constructor(
    readonly fileName: string,
    problem: string,
  ) {
    super(
      `${fileName}: ${problem}. Is this an MNIST IDX file (e.g. train-images-idx3-ubyte)? ` +
        'Re-download it (torchvision.datasets.MNIST(root, download=True)) or regenerate the fixtures.',
    );
  }
}

const UNSIGNED_BYTE = 0x08;
const TYPE_NAMES: Readonly<Record<number, string>> = {
  8: 'unsigned byte',
  9: 'signed byte',
  11: 'int16',
  12: 'int32',
  13: 'float32',
  14: 'float64',
};
const MAX_DIM = 0xffff_ffff;

function hex(byte: number): string {
  return `0x${byte.toString(16).padStart(2, '0')}`;
}

/** What the magic numbers of MNIST's IDX files mean (the 4 header bytes read as a big-endian int). */
export const MNIST_MAGIC = { images: 2051, labels: 2049 } as const;
const MAGIC_MEANING: Record<number, string> = { [MNIST_MAGIC.images]: 'an images file', [MNIST_MAGIC.labels]: 'a labels file' };

/**
 * The dimensions and element bytes of an unsigned-byte IDX file; `data` is a view into `bytes`.
 * With `expectedMagic`, a file of the other kind is named as such before any size check.
 */
export function parseIdx(bytes: Uint8Array, fileName: string, expectedMagic?: number): { dims: number[]; data: Uint8Array } {
  if (bytes.length < 4) {
    throw new IdxFormatError(fileName, `only ${bytes.length} bytes, too short for the 4-byte IDX magic`);
  }
  const [zero0, zero1, type, ndims] = [bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!];
  if (zero0 !== 0 || zero1 !== 0) {
    throw new IdxFormatError(fileName, `bad magic ${[zero0, zero1, type, ndims].map(hex).join(' ')}: an IDX file starts with two zero bytes`);
  }
  const magic = (type << 8) | ndims;
  if (expectedMagic !== undefined && magic !== expectedMagic) {
    const meaning = MAGIC_MEANING[magic];
    throw new IdxFormatError(
      fileName,
      `wrong magic number (${magic}${meaning ? `, ${meaning}?` : ''}); expected ${expectedMagic} (${MAGIC_MEANING[expectedMagic] ?? 'IDX'})`,
    );
  }
  if (type !== UNSIGNED_BYTE) {
    const typeName = TYPE_NAMES[type];
    throw new IdxFormatError(
      fileName,
      typeName === undefined
        ? `unknown element type code ${hex(type)}`
        : `element type ${hex(type)} (${typeName}) is not supported, only 0x08 (unsigned byte) as in MNIST`,
    );
  }
  if (ndims === 0) {
    throw new IdxFormatError(fileName, 'the header declares 0 dimensions');
  }
  const headerLength = 4 + 4 * ndims;
  if (bytes.length < headerLength) {
    throw new IdxFormatError(fileName, `truncated header: ${ndims} dimensions need ${headerLength} header bytes, the file has ${bytes.length}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, headerLength);
  const dims: number[] = [];
  let expected = 1;
  for (let i = 0; i < ndims; i++) {
    const dim = view.getUint32(4 + 4 * i, false);
    dims.push(dim);
    expected *= dim;
  }
  const found = bytes.length - headerLength;
  if (found < expected) {
    throw new IdxFormatError(fileName, `truncated: expected ${expected} bytes of data for dims [${dims.join(', ')}], found ${found}`);
  }
  if (found > expected) {
    throw new IdxFormatError(fileName, `${found - expected} trailing bytes after the ${expected} bytes of data for dims [${dims.join(', ')}]`);
  }
  // A plain Uint8Array view (even when `bytes` is a Buffer): no copy of tens of megabytes.
  return { dims, data: new Uint8Array(bytes.buffer, bytes.byteOffset + headerLength, expected) };
}

/** An unsigned-byte IDX file holding `data` with dimensions `dims`. */
export function encodeIdx(dims: number[], data: Uint8Array): Uint8Array {
  if (dims.length < 1 || dims.length > 255) {
    throw new RangeError(`encodeIdx: 1 to 255 dimensions, got ${dims.length}`);
  }
  let expected = 1;
  for (const dim of dims) {
    if (!Number.isInteger(dim) || dim < 0 || dim > MAX_DIM) {
      throw new RangeError(`encodeIdx: dimensions must be uint32, got [${dims.join(', ')}]`);
    }
    expected *= dim;
  }
  if (data.length !== expected) {
    throw new RangeError(`encodeIdx: dims [${dims.join(', ')}] need ${expected} bytes, got ${data.length}`);
  }
  const headerLength = 4 + 4 * dims.length;
  const out = new Uint8Array(headerLength + data.length);
  const view = new DataView(out.buffer);
  out[2] = UNSIGNED_BYTE;
  out[3] = dims.length;
  for (const [i, dim] of dims.entries()) view.setUint32(4 + 4 * i, dim, false);
  out.set(data, headerLength);
  return out;
}
