import { lstat, stat } from 'node:fs/promises';
import { fsErrorCause, notRegularReason, readRegularFile } from '../base/regular-file.js';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { makeImageDataset, type ImageDataset } from './dataset.js';
import { MNIST_MAGIC, parseIdx } from './idx.js';

const gunzipAsync = promisify(gunzip);

const TORCHVISION_HINT = "torchvision.datasets.MNIST(root='data', download=True) leaves them in data/MNIST/raw; pass that folder";

/** Thrown when an MNIST folder or its files are missing or hold something unexpected. */
export class MnistDirError extends Error {
  override readonly name = 'MnistDirError';
}

/** The MNIST split names, as in the file names (t10k = the 10,000 test images). */
export type MnistSplit = 'train' | 't10k';

/** Whether `path` is a regular file; false when nothing is there; a FIFO, device, folder or dangling link there is refused (never opened: it could block). */
async function isFile(path: string): Promise<boolean> {
  if (!(await lstat(path).catch(() => null))) return false;
  const reason = await notRegularReason(path).catch(() => null);
  if (reason) throw new MnistDirError(`${path}: ${reason.reason}, so not read; it must be the IDX file itself`);
  return true;
}

/** The bytes of `dir/base` or else `dir/base.gz` inflated, and the path they came from. */
async function readMaybeGzipped(dir: string, base: string, lookedFor: string[]): Promise<{ path: string; bytes: Uint8Array }> {
  const plain = join(dir, base);
  // Plain first: torchvision keeps both, and the plain file needs no inflating.
  if (await isFile(plain)) return { path: plain, bytes: await readRegularFile(plain) };
  const gz = `${plain}.gz`;
  if (await isFile(gz)) {
    const compressed = await readRegularFile(gz);
    try {
      return { path: gz, bytes: await gunzipAsync(compressed) };
    } catch (error) {
      throw new MnistDirError(`${gz}: not a valid gzip file (${(error as Error).message}); delete it and download it again, or gunzip it by hand to check`);
    }
  }
  throw new MnistDirError(`${dir}: found neither ${base} nor ${base}.gz (looking for ${lookedFor.join(', ')}). ${TORCHVISION_HINT}.`);
}

/** The images and labels of one MNIST split read from IDX files (plain or .gz) in `dir`. */
export async function loadMnistDir(dir: string, split: MnistSplit = 'train'): Promise<ImageDataset> {
  const imagesBase = `${split}-images-idx3-ubyte`;
  const labelsBase = `${split}-labels-idx1-ubyte`;
  const lookedFor = [imagesBase, `${imagesBase}.gz`, labelsBase, `${labelsBase}.gz`];

  // A link that loops (ELOOP) or a folder not ours (EACCES) is said as such, not as 'no such directory'.
  const dirStat = await stat(dir).catch((error: NodeJS.ErrnoException) => error);
  if (dirStat instanceof Error || !dirStat.isDirectory()) {
    const why = !(dirStat instanceof Error) ? 'not a directory' : dirStat.code === 'ENOENT' ? 'no such directory' : `cannot be read (${fsErrorCause(dirStat)})`;
    throw new MnistDirError(`${dir}: ${why}; expected a folder holding ${lookedFor.join(', ')}. ${TORCHVISION_HINT}.`);
  }

  const imagesFile = await readMaybeGzipped(dir, imagesBase, lookedFor);
  const labelsFile = await readMaybeGzipped(dir, labelsBase, lookedFor);
  const images = parseIdx(imagesFile.bytes, imagesFile.path, MNIST_MAGIC.images);
  const labels = parseIdx(labelsFile.bytes, labelsFile.path, MNIST_MAGIC.labels);

  const [count, height, width] = images.dims;
  if (images.dims.length !== 3 || count === undefined || !height || !width) {
    throw new MnistDirError(
      `${imagesFile.path}: expected image dims [count, height, width] with height and width > 0 ` +
        `(magic 2051), found [${images.dims.join(', ')}]; is this a labels file?`,
    );
  }
  if (labels.dims.length !== 1) {
    throw new MnistDirError(`${labelsFile.path}: expected label dims [count] (magic 2049), found [${labels.dims.join(', ')}]; is this an images file?`);
  }
  if (labels.dims[0] !== count) {
    throw new MnistDirError(
      `${labelsFile.path}: ${labels.dims[0]} labels but ${imagesFile.path} holds ${count} images; ` +
        'the two files must come from the same split and download',
    );
  }
  const bad = labels.data.findIndex((label) => label > 9);
  if (bad !== -1) {
    throw new MnistDirError(`${labelsFile.path}: label ${labels.data[bad]} at index ${bad} is not a digit 0..9; the file is corrupt or not MNIST`);
  }

  return makeImageDataset({
    images: images.data,
    labels: labels.data,
    count,
    height,
    width,
    channels: 1,
    source: `MNIST ${split} IDX files ${imagesFile.path} + ${labelsFile.path}`,
  });
}
