import { inject } from 'vitest';
import { describeBackend, startBackend } from '../backend/start.js';
import type { BackendContext } from '../backend/types.js';
import type { ImageDataset } from '../data/dataset.js';
import type { CocoDataset } from '../data/coco/reader.js';
import { cocoSource } from '../data/coco/source.js';
import type { KineticsDataset } from '../data/kinetics/reader.js';
import { kineticsSource } from '../data/kinetics/source.js';
import { mnistSource } from '../data/mnist/source.js';
import type { DatasetSource } from '../data/source.js';
import { canonicalData, type RunConfig, sourceContext } from '../run-config.js';
import type { RunProfile } from '../results/schema.js';
import { SIZES, type MediaSizes, type ScaleSizes } from './sizes.js';
import { describeHardwareProfile } from '../backend/hardware-profile.js';
import { describeCapabilities } from '../transfer/capabilities.js';

/** The started backend of this run and the hardware profile measured once, at its start. */
export interface RunBackend {
  readonly context: BackendContext;
  readonly profile: RunProfile;
}

// Kept on globalThis so every perf file of the one test process shares one backend and one
// device, whatever the module cache does between files.
const SESSION = Symbol.for('gpu-transfer-perf.session');
interface Session {
  backend?: Promise<RunBackend>;
  /** Each data set read so far, by source name. */
  data?: Map<string, Promise<unknown>>;
  /** What each data set loaded so far holds, in the run record's words, by source name (datasetsRead). */
  read?: Map<string, string>;
}
function session(): Session {
  const g = globalThis as { [SESSION]?: Session };
  g[SESSION] ??= {};
  return g[SESSION];
}

/** The run configuration the command line provided (vitest's provide/inject channel). */
export function useConfig(): RunConfig {
  return inject('runConfig');
}

/** The image and video sizes of this run's scale. */
export function useMediaSizes(): MediaSizes {
  return { coco: useSourceSizes(cocoSource), kinetics: useSourceSizes(kineticsSource) };
}

/** A data source's sizes at this run's scale. */
// biome-ignore lint/suspicious/noExplicitAny: any given and data type
export function useSourceSizes<Sizes>(source: DatasetSource<any, any, Sizes>, config: RunConfig = useConfig()): Sizes {
  if (!source.sizes) throw new Error(`data source ${source.name} has no sizes of its own`);
  return source.sizes[config.scale];
}

/** What the user named for a data source with its flags (null: its default). */
// biome-ignore lint/suspicious/noExplicitAny: any data and sizes type
export function useGivenData<Given>(source: DatasetSource<Given, any, any>, config: RunConfig = useConfig()): Given | null {
  return (config.data[source.name] ?? null) as Given | null;
}

/** A data source's data of this run (its flags' data, else its default), at this run's scale, read once per process. */
// biome-ignore lint/suspicious/noExplicitAny: any given and sizes type
export function useDataset<Data>(source: DatasetSource<any, Data, any>, config: RunConfig = useConfig()): Promise<Data> {
  const s = session();
  s.data ??= new Map();
  const loaded = s.data;
  s.read ??= new Map();
  const read = s.read;
  if (!loaded.has(source.name)) {
    const load = source.load(useGivenData(source, config), source.sizes?.[config.scale] ?? null, sourceContext(config));
    // Noted once loaded, so that the run record lists what the run read (a user's perf file
    // that reads no data set lists none), not what its scenarios might have read.
    loaded.set(
      source.name,
      load.then(async (data) => {
        read.set(source.name, await describeRead(source, config));
        return data;
      }),
    );
  }
  return loaded.get(source.name) as Promise<Data>;
}

/**
 * A loaded data set in the run record's words: as the command line described it before the run
 * (config.datasets), else its default's words, else (a data set named with flags that no
 * selected scenario declares, read by a user's perf file) described here, as up front.
 */
// biome-ignore lint/suspicious/noExplicitAny: any given, data and sizes type
async function describeRead(source: DatasetSource<any, any, any>, config: RunConfig): Promise<string> {
  const described = config.datasets[source.name];
  if (described !== undefined) return described;
  const given = canonicalData(config.data, process.cwd(), [source])[source.name] ?? null;
  if (given === null) return source.defaultDescription;
  return source.describe(given, [], sourceContext(config)).catch((error: unknown) => `${source.name} data named by its flags (${(error as Error).message})`);
}

/**
 * The data sets this test process has loaded through useDataset so far, each in the run
 * record's words (the record reporter keeps the union over the run's files: record.ts).
 */
export function datasetsRead(): Record<string, string> {
  return Object.fromEntries(session().read ?? []);
}

/** The sample sizes of this run's scale. */
export function useSizes(): ScaleSizes {
  return SIZES[useConfig().scale];
}

/** The backend of this run and its hardware profile, started once per process; prints what runs and why. */
export function useRunBackend(): Promise<RunBackend> {
  const s = session();
  const config = useConfig();
  s.backend ??= startBackend(config.backend, config.requireBackend).then((context) => {
    console.info(`[gpu-transfer-perf] ${describeBackend(context)}`);
    return { context, profile: describeHardwareProfile(context, describeCapabilities(context)) };
  });
  return s.backend;
}

/** The backend of this run, started once per process. */
export async function useBackend(): Promise<BackendContext> {
  return (await useRunBackend()).context;
}

/** The MNIST images of this run: --mnist-dir's idx files, else the `mnist` package. */
export function useMnist(): Promise<ImageDataset> {
  return useDataset(mnistSource);
}

/** The COCO data of this run (--coco-root/--coco-ann, else the committed fixture), read once. */
export function useCoco(): Promise<CocoDataset> {
  return useDataset(cocoSource);
}

/** The Kinetics clips of this run (--kinetics-root, else the committed fixture), at this scale's frame size, read once. */
export function useKinetics(): Promise<KineticsDataset> {
  return useDataset(kineticsSource);
}
