import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../test/support/temp-folder.js';
import type { ImageDataset } from './dataset.js';
import { encodeIdx, IdxFormatError } from './idx.js';
import { loadMnistDir, MnistDirError } from './mnist-dir.js';
import { loadMnistPackage } from './mnist-package.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/mnist-idx', import.meta.url));
const DIGIT_COUNTS = [1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978];
const IMAGE_BYTES = 28 * 28;

/** The package indices the fixture script picks: the first 10 of each digit. */
function fixtureIndices(): number[] {
  const indices: number[] = [];
  let start = 0;
  for (const n of DIGIT_COUNTS) {
    for (let k = 0; k < 10; k++) indices.push(start + k);
    start += n;
  }
  return indices;
}

function expectMatchesPackage(ds: ImageDataset): void {
  const pkg = loadMnistPackage();
  const indices = fixtureIndices();
  expect([ds.count, ds.height, ds.width, ds.channels]).toEqual([100, 28, 28, 1]);
  indices.forEach((index, k) => {
    expect(ds.labels[k]).toBe(pkg.labels[index]);
    expect(ds.images.subarray(k * IMAGE_BYTES, (k + 1) * IMAGE_BYTES)).toEqual(pkg.images.subarray(index * IMAGE_BYTES, (index + 1) * IMAGE_BYTES));
  });
}

describe('loadMnistDir on the fixtures', () => {
  it('reads the plain train files', async () => {
    const ds = await loadMnistDir(FIXTURES);
    expectMatchesPackage(ds);
    expect(ds.source).toContain('train-images-idx3-ubyte');
  });

  it('reads the gzipped t10k files', async () => {
    const ds = await loadMnistDir(FIXTURES, 't10k');
    expectMatchesPackage(ds);
    expect(ds.source).toContain('t10k-images-idx3-ubyte.gz');
  });
});

describe('loadMnistDir errors name the file', () => {
  const temp = tempFolder('mnist-dir-test-');

  const images = encodeIdx(
    [3, 2, 2],
    Uint8Array.from({ length: 12 }, (_, i) => i),
  );
  const labels = encodeIdx([3], Uint8Array.of(0, 5, 9));

  /** A fresh folder in the temp folder holding `files`. */
  async function dirWith(files: Record<string, Uint8Array>): Promise<string> {
    const dir = await mkdtemp(temp.at('set-'));
    for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
    return dir;
  }

  it('accepts small valid files of any image size', async () => {
    const dir = await dirWith({ 'train-images-idx3-ubyte': images, 'train-labels-idx1-ubyte': labels });
    const ds = await loadMnistDir(dir);
    expect([ds.count, ds.height, ds.width, ds.channels]).toEqual([3, 2, 2, 1]);
    expect(Array.from(ds.labels)).toEqual([0, 5, 9]);
  });

  type ErrorClass = new (...args: never[]) => Error;
  const bad: Array<[string, Record<string, Uint8Array>, string, RegExp, ErrorClass]> = [
    [
      'wrong magic (a labels file as images)',
      { 'train-images-idx3-ubyte': labels, 'train-labels-idx1-ubyte': labels },
      'train-images-idx3-ubyte',
      /wrong magic number \(2049, a labels file\?\); expected 2051 \(an images file\)/,
      IdxFormatError,
    ],
    [
      // Issue 11 #5: image data whose header carries the labels' magic was reported as "trailing bytes".
      'an images file starting with the labels magic',
      { 'train-images-idx3-ubyte': Uint8Array.from(images, (b, i) => (i === 3 ? 1 : b)), 'train-labels-idx1-ubyte': labels },
      'train-images-idx3-ubyte',
      /wrong magic number \(2049, a labels file\?\)/,
      IdxFormatError,
    ],
    [
      'a labels file given as images',
      { 'train-images-idx3-ubyte': images, 'train-labels-idx1-ubyte': images },
      'train-labels-idx1-ubyte',
      /wrong magic number \(2051, an images file\?\); expected 2049/,
      IdxFormatError,
    ],
    [
      'wrong magic (not IDX at all)',
      { 'train-images-idx3-ubyte': new TextEncoder().encode('<html>Not Found</html>'), 'train-labels-idx1-ubyte': labels },
      'train-images-idx3-ubyte',
      /bad magic/,
      IdxFormatError,
    ],
    [
      'truncated data',
      { 'train-images-idx3-ubyte': images.subarray(0, images.length - 5), 'train-labels-idx1-ubyte': labels },
      'train-images-idx3-ubyte',
      /truncated: expected 12 bytes of data.*found 7/,
      IdxFormatError,
    ],
    [
      'trailing bytes',
      { 'train-images-idx3-ubyte': images, 'train-labels-idx1-ubyte': Uint8Array.from([...labels, 1, 2]) },
      'train-labels-idx1-ubyte',
      /2 trailing bytes/,
      IdxFormatError,
    ],
    [
      'corrupt gzip',
      {
        'train-images-idx3-ubyte.gz': gzipSync(images).subarray(0, 20),
        'train-labels-idx1-ubyte': labels,
      },
      'train-images-idx3-ubyte.gz',
      /not a valid gzip file/,
      MnistDirError,
    ],
    [
      'not gzip at all',
      { 'train-images-idx3-ubyte.gz': images, 'train-labels-idx1-ubyte': labels },
      'train-images-idx3-ubyte.gz',
      /not a valid gzip file/,
      MnistDirError,
    ],
    [
      'label out of range',
      { 'train-images-idx3-ubyte': images, 'train-labels-idx1-ubyte': encodeIdx([3], Uint8Array.of(0, 10, 1)) },
      'train-labels-idx1-ubyte',
      /label 10 at index 1 is not a digit/,
      MnistDirError,
    ],
    [
      'count mismatch',
      { 'train-images-idx3-ubyte': images, 'train-labels-idx1-ubyte': encodeIdx([2], Uint8Array.of(0, 1)) },
      'train-labels-idx1-ubyte',
      /2 labels but .*holds 3 images/,
      MnistDirError,
    ],
    [
      'missing labels file',
      { 'train-images-idx3-ubyte': images },
      'train-labels-idx1-ubyte.gz',
      /found neither train-labels-idx1-ubyte nor train-labels-idx1-ubyte\.gz.*data\/MNIST\/raw/,
      MnistDirError,
    ],
  ];
  for (const [name, files, named, pattern, errorClass] of bad) {
    it(name, async () => {
      const dir = await dirWith(files);
      const error = await loadMnistDir(dir).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(errorClass);
      expect((error as Error).message).toMatch(pattern);
      expect((error as Error).message).toContain(named);
    });
  }

  it('missing directory', async () => {
    const missing = join(tmpdir(), 'mnist-dir-test-does-not-exist', 'raw');
    const error = await loadMnistDir(missing, 't10k').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MnistDirError);
    expect((error as Error).message).toContain(missing);
    expect((error as Error).message).toMatch(/no such directory/);
    expect((error as Error).message).toContain('t10k-images-idx3-ubyte.gz');
    expect((error as Error).message).toMatch(/torchvision/);
  });

  it('a file where the directory should be', async () => {
    const dir = await dirWith({ 'train-images-idx3-ubyte': images });
    const path = join(dir, 'train-images-idx3-ubyte');
    await expect(loadMnistDir(path)).rejects.toThrow(/not a directory/);
  });
});
