import { DatasetLoader } from '../loader.js';
import { LOADER_SEED, type DatasetSource } from '../source.js';
import { letterboxCollate } from './collate.js';
import type { CocoDataset } from './reader.js';

// The reader (and sharp) load when a run reads COCO, not with the command line that lists the source.
const loadCoco: typeof import('./reader.js').loadCoco = async (options) => (await import('./reader.js')).loadCoco(options);

/** A COCO images folder and its instances JSON (--coco-root, --coco-ann). */
export interface CocoFiles {
  readonly root: string;
  readonly annotations: string;
}

/** COCO sizes of one scale: images per batch, letterboxed to a square of `side` pixels. */
export interface CocoSizes {
  readonly batch: number;
  readonly side: number;
  readonly rounds: number;
  readonly warmupRounds: number;
  readonly trainBatch: number;
}

const FIXTURE: CocoFiles = { root: 'fixtures/coco/images', annotations: 'fixtures/coco/annotations/instances.json' };

/** COCO (section 7): --coco-root and --coco-ann, else the committed fixture; read by the coco scenarios. */
export const cocoSource = {
  name: 'coco',
  flags: [
    { name: 'coco-root', usage: '  --coco-root DIR         COCO images folder (e.g. val2017); with --coco-ann' },
    { name: 'coco-ann', usage: '  --coco-ann FILE         COCO instances JSON (e.g. annotations/instances_val2017.json)' },
  ],
  given(flag) {
    const root = flag('coco-root');
    const annotations = flag('coco-ann');
    if ((root === null) !== (annotations === null)) throw new Error('--coco-root and --coco-ann go together: the images folder and its instances JSON');
    return root !== null && annotations !== null ? { root, annotations } : null;
  },
  fixture: FIXTURE,
  isFixture: (given, same) => same(given.root, FIXTURE.root) && same(given.annotations, FIXTURE.annotations),
  defaultDescription: 'the committed COCO fixture (fixtures/coco: 12 images, 18 annotations, 4 categories)',
  scenarios: ['coco'],
  async describe(files) {
    // Decoded, as the COCO scenarios read it (loadCoco's default), so that the description and
    // the exact metrics count the same images: a header-only pass counted truncated files too.
    const s = (await loadCoco(files)).summary;
    return `COCO ${s.annotationsFile} (${s.images} images, ${s.annotations} annotations, ${s.categories} categories)`;
  },
  // The article's 16 images a batch at both scales; quick shrinks them to 128x128 so that CI on
  // 2 cores and a software device stays fast. At quick scale a profiled step of the FCN on 16
  // images took ~50 s on lavapipe (each kernel in its own pass), so quick trains on 2 images.
  sizes: {
    quick: { batch: 16, side: 128, rounds: 20, warmupRounds: 3, trainBatch: 2 },
    full: { batch: 16, side: 480, rounds: 100, warmupRounds: 10, trainBatch: 16 },
  },
  load: (files) => loadCoco(files ?? FIXTURE),
  batches(dataset, { batch, side }) {
    const loader = new DatasetLoader(dataset, letterboxCollate({ size: side }), { batchSize: batch, shuffle: true, seed: LOADER_SEED, dropLast: false });
    return { dataset, loader, what: `${batch} COCO images letterboxed to ${side}x${side} (bilinear, black padding), [${batch},${side},${side},3]` };
  },
} satisfies DatasetSource<CocoFiles, CocoDataset, CocoSizes>;
