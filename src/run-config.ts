import { resolve } from 'node:path';
import type { BackendChoice, BackendName } from './backend/types.js';
import type { FfmpegPaths } from './data/kinetics/ffmpeg.js';
import { type AnyDatasetSource, ON_PATH, type SourceContext } from './data/source.js';
import type { Scale } from './data/scale.js';
import { DATASET_SOURCES } from './data/sources.js';

export { SCALES, type Scale } from './data/scale.js';

/**
 * What the user named for each data set with its flags, by source name (DATASET_SOURCES in
 * src/data/sources.ts: `mnist` an idx folder, `coco` images and instances JSON, `kinetics` a
 * layout root); null or absent: the source's default (committed fixture or embedded data).
 */
export type DataSources = Readonly<Record<string, unknown>>;

/**
 * `data` with a source that names a committed fixture explicitly (`--coco-root
 * fixtures/coco/images --coco-ann fixtures/coco/annotations/instances.json`, `./fixtures/kinetics/`)
 * turned back into the default (null): it is the same files, so it must be described as the
 * embedded data, or a baseline made on the default would refuse the run as other data.
 */
export function canonicalData(data: DataSources, cwd = process.cwd(), sources: readonly AnyDatasetSource[] = DATASET_SOURCES): DataSources {
  const same = (a: string, b: string) => resolve(cwd, a) === resolve(cwd, b);
  const given = (s: AnyDatasetSource) => data[s.name] ?? null;
  return { ...data, ...Object.fromEntries(sources.map((s) => [s.name, given(s) !== null && s.isFixture(given(s), same) ? null : given(s)])) };
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
  /**
   * What each data set the run may read holds, in words, by data set name (`mnist`, ...),
   * described before it starts; the run record keeps those it read (runner/reporter.ts recordedDatasets).
   */
  readonly datasets: Readonly<Record<string, string>>;
  /** Calibration only: device-normalize in the speedup scenario does this fraction more real work (0: none). */
  readonly extraWork?: number;
  /** A question asked with flags instead of perf files (`--shape`, `--image-folder`); absent otherwise. */
  readonly question?: Question;
  /** Where ffmpeg and ffprobe are (FFMPEG_PATH / FFPROBE_PATH; null: PATH), for the Kinetics source; absent: not read by the command line. */
  readonly videoTools?: FfmpegPaths;
}

/**
 * --mean R,G,B --std R,G,B: the user's per-channel normalization on the 0..255 scale
 * (torchvision's Normalize values times 255). Absent: ImageNet's for 3 channels, (x - 127.5) /
 * 127.5 otherwise; stated in the metrics' details either way.
 */
export interface QuestionNormalization {
  readonly mean: readonly number[];
  readonly std: readonly number[];
}

/**
 * What `gtp perf --shape` / `--image-folder` asks, with no code: both strategies (and, for a
 * shape, the wire types) measured at the user's sizes by the files in questions/.
 */
export type Question = (
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
      /** --resample: torchvision's antialiased PIL bilinear (default) or plain bilinear. */
      readonly resample?: 'antialias' | 'bilinear-no-antialias';
      /** --max-pixels: images of more pixels are skipped before decoding (default PIL's MAX_IMAGE_PIXELS). */
      readonly maxPixels?: number;
    }
) & {
  /** --mean/--std; absent: the default (QuestionNormalization). */
  readonly normalization?: QuestionNormalization;
};

/** What a data source needs of the run besides its data (the video tools; none named: on PATH). */
export function sourceContext(config: Pick<RunConfig, 'videoTools'>): SourceContext {
  return config.videoTools ? { videoTools: config.videoTools } : ON_PATH;
}

declare module 'vitest' {
  export interface ProvidedContext {
    runConfig: RunConfig;
  }
}

/** What each data set reads by default, by name, as run records and baselines name it. */
export function defaultDatasets(sources: readonly AnyDatasetSource[] = DATASET_SOURCES): Record<string, string> {
  return Object.fromEntries(sources.map((s) => [s.name, s.defaultDescription]));
}

/** A run of every scenario on the embedded data, with the given backend choices and scale. */
export function defaultRunConfig(
  choices: Pick<RunConfig, 'backend' | 'requireBackend' | 'scale'>,
  sources: readonly AnyDatasetSource[] = DATASET_SOURCES,
): RunConfig {
  return { ...choices, data: Object.fromEntries(sources.map((s) => [s.name, null])), selection: null, datasets: defaultDatasets(sources) };
}
