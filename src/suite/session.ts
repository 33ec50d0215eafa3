import { inject } from 'vitest';
import { describeBackend, startBackend } from '../backend/start.js';
import type { BackendContext } from '../backend/types.js';
import type { ImageDataset } from '../data/dataset.js';
import { loadMnistDir } from '../data/mnist-dir.js';
import { loadMnistPackage } from '../data/mnist-package.js';
import { loadCoco, type CocoDataset } from '../data/coco/reader.js';
import { loadKinetics, type KineticsDataset } from '../data/kinetics/reader.js';
import { resolvedData, type RunConfig } from '../run-config.js';
import type { RunProfile } from '../results/schema.js';
import { MEDIA_SIZES, SIZES, type MediaSizes, type ScaleSizes } from './sizes.js';
import { describeHardwareProfile } from './hardware-profile.js';

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
  mnist?: Promise<ImageDataset>;
  coco?: Promise<CocoDataset>;
  kinetics?: Promise<KineticsDataset>;
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
  return MEDIA_SIZES[useConfig().scale];
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
    return { context, profile: describeHardwareProfile(context) };
  });
  return s.backend;
}

/** The backend of this run, started once per process. */
export async function useBackend(): Promise<BackendContext> {
  return (await useRunBackend()).context;
}

/** The MNIST images of this run: --mnist-dir's idx files, else the `mnist` package. */
export function useMnist(): Promise<ImageDataset> {
  const s = session();
  const dir = useConfig().data.mnistDir;
  s.mnist ??= dir ? loadMnistDir(dir) : Promise.resolve(loadMnistPackage());
  return s.mnist;
}

/** The COCO data of this run (--coco-root/--coco-ann, else the committed fixture), read once. */
export function useCoco(): Promise<CocoDataset> {
  const s = session();
  s.coco ??= loadCoco(resolvedData(useConfig().data).coco);
  return s.coco;
}

/** The Kinetics clips of this run (--kinetics-root, else the committed fixture), at this scale's frame size, read once. */
export function useKinetics(): Promise<KineticsDataset> {
  const s = session();
  const { height, width, frames } = useMediaSizes().kinetics;
  s.kinetics ??= loadKinetics({ root: resolvedData(useConfig().data).kineticsRoot, framesPerClip: frames, size: { height, width } });
  return s.kinetics;
}
