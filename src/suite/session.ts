import { describeBackend, startBackend } from '../backend/start.js';
import type { BackendContext } from '../backend/types.js';
import type { ImageDataset } from '../data/dataset.js';
import { loadMnistDir } from '../data/mnist-dir.js';
import { loadMnistPackage } from '../data/mnist-package.js';
import { runConfigFromEnv, type RunConfig } from '../run-config.js';

// Kept on globalThis so every perf file of the one test process shares one backend and one
// device, whatever the module cache does between files.
const SESSION = Symbol.for('gpu-transfer-perf.session');
interface Session {
  config: RunConfig;
  backend?: Promise<BackendContext>;
  mnist?: Promise<ImageDataset>;
}
function session(): Session {
  const g = globalThis as { [SESSION]?: Session };
  g[SESSION] ??= { config: runConfigFromEnv() };
  return g[SESSION];
}

/** The run configuration this process was started with (from PERF_* variables). */
export function useConfig(): RunConfig {
  return session().config;
}

/** The backend of this run, started once per process; prints what runs and why. */
export function useBackend(): Promise<BackendContext> {
  const s = session();
  s.backend ??= startBackend(s.config.backend, s.config.requireBackend).then((context) => {
    console.info(`[gpu-transfer-perf] ${describeBackend(context)}`);
    return context;
  });
  return s.backend;
}

/** The MNIST images of this run: --mnist-dir's idx files, else the `mnist` package. */
export function useMnist(): Promise<ImageDataset> {
  const s = session();
  s.mnist ??= s.config.mnistDir ? loadMnistDir(s.config.mnistDir) : Promise.resolve(loadMnistPackage());
  return s.mnist;
}
