import type { FfmpegPaths } from './kinetics/ffmpeg.js';
import type { Scale } from './scale.js';
import type { TimedBatch } from './loader.js';

/** A string flag of `gtp perf` that a data source reads (`--mnist-dir DIR`), with its usage lines. */
export interface DataFlag {
  /** The flag without its dashes: 'mnist-dir'. */
  readonly name: string;
  /** Its lines in the usage text, as printed (indented, aligned, no trailing newline). */
  readonly usage: string;
}

/** The batches a timed scenario draws from a data set, and the batch in words. */
export interface SourceBatches<Data> {
  readonly dataset: Data;
  /** Endless batches (DatasetLoader.stream), decoded and collated per round. */
  readonly loader: { stream(): AsyncIterator<TimedBatch<unknown>> };
  readonly what: string;
}

/**
 * What reading a source needs of the run besides its data: where the video tools are
 * (RunConfig.videoTools, from FFMPEG_PATH / FFPROBE_PATH as src/cli/args.ts reads them).
 */
export interface SourceContext {
  readonly videoTools: FfmpegPaths;
}

/** A run that names no video tools: ffmpeg and ffprobe are looked up on PATH. */
export const ON_PATH: SourceContext = { videoTools: { ffmpeg: null, ffprobe: null } };

/** The seed of the image and video loaders' shuffles. */
export const LOADER_SEED = 2024;

/**
 * One data set the perf files read, everything the command line, the run configuration, the
 * runner and the session need of it in one object (src/data/<name>/source.ts), listed once in
 * DATASET_SOURCES (src/data/sources.ts). `Given` is what the user named with its flags (plain
 * data: it travels to the test process inside the RunConfig); null there means the default
 * (a committed fixture, or embedded data such as the mnist package).
 */
export interface DatasetSource<Given = unknown, Data = unknown, Sizes = unknown> {
  /** The data set's name: its key in RunConfig.data and in the run record's `datasets`. */
  readonly name: string;
  /** The perf flags that name its data. */
  readonly flags: readonly DataFlag[];
  /** What the flags name (null: the default); a combination that does not go together throws a message (a usage error). */
  given(flag: (name: string) => string | null): Given | null;
  /** The committed fixture read by default, or null where the default is embedded data. */
  readonly fixture: Given | null;
  /** Whether `given` names the fixture's own files, so that it is described (and compared) as the default. */
  isFixture(given: Given, samePath: (a: string, b: string) => boolean): boolean;
  /** What the default reads, as run records and baselines name it. */
  readonly defaultDescription: string;
  /**
   * The scenario ids that read it; 'others': every scenario no source names (MNIST). Says what
   * to read and check before a run starts; the run record lists a data set only once a test
   * process loaded it (useDataset), so a user's file that no source names is not said to read MNIST.
   */
  readonly scenarios: readonly string[] | 'others';
  /**
   * Reads the user's data once before any device starts and says what it holds (the run
   * record's words); throws what the user must fix. `scenarioIds`: the selected scenarios.
   */
  describe(given: Given, scenarioIds: readonly string[], context: SourceContext): Promise<string>;
  /** Sizes of the scenarios that read it, per scale; null where they have none of their own. */
  readonly sizes: Readonly<Record<Scale, Sizes>> | null;
  /** The data of this run (`given` null: the default), read in the test process. */
  load(given: Given | null, sizes: Sizes, context: SourceContext): Promise<Data>;
  /** The shuffled, seeded batches a timed scenario draws, where it has them. */
  batches?(data: Data, sizes: Sizes): SourceBatches<Data>;
}

/** Any registered source, whatever its types. */
// biome-ignore lint/suspicious/noExplicitAny: a list of sources of different data types
export type AnyDatasetSource = DatasetSource<any, any, any>;
