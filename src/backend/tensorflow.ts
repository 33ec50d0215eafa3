import { tensorflowSetup } from '../base/commands.js';
import * as tf from '@tensorflow/tfjs';
import { createRequire } from 'node:module';
import { recordCapabilities } from './capabilities.js';
import { BackendUnavailableError } from './errors.js';
import type { TfNodeBackend } from './tensorflow-binding.js';
import { installTensorflowTransferCounter } from './tensorflow-transfer-counter.js';
import type { BackendContext } from './types.js';
import { TFJS_NODE, TFJS_NODE_GPU, tensorflowPackage } from './tensorflow-installed.js';

const require = createRequire(import.meta.url);

export { isTensorflowInstalled } from './tensorflow-installed.js';

/** What the running tensorflow backend is made of, for the profile's versions; null before it starts. */
let running: { package: string; packageVersion: string; tensorflow: string } | null = null;

/** The running tensorflow backend's package, its version and TensorFlow's (TF_Version); null before it starts. */
export function runningTensorflow(): { readonly package: string; readonly packageVersion: string; readonly tensorflow: string } | null {
  return running;
}

/**
 * The versions of the running tensorflow backend: TensorFlow's own, read from the C library
 * through the binding (TF_Version), and the tfjs-node package's. Empty when it has not started.
 */
export function tensorflowVersions(): Record<string, string> {
  if (!running) return {};
  return { tensorflow: running.tensorflow, [running.package.replace('@tensorflow/', '')]: running.packageVersion };
}

/**
 * Starts tfjs-node's TensorFlow binding: @tensorflow/tfjs-node-gpu (TensorFlow built with CUDA; an
 * optional peer) when installed, else @tensorflow/tfjs-node, which `npm run setup:tensorflow`
 * installs on TensorFlow 2.21's C library from the tensorflow-cpu wheel (scripts/setup-tensorflow.sh).
 * Bytes are counted at its native binding (tensorflow-transfer-counter.ts).
 */
export async function startTensorflow(reason: string): Promise<BackendContext> {
  const specifier = tensorflowPackage(); // a variable: the package has no types here
  if (specifier === null) {
    throw new BackendUnavailableError(
      `neither ${TFJS_NODE_GPU} nor ${TFJS_NODE} is installed: ${tensorflowSetup()} installs ` +
        `${TFJS_NODE} 4.22.0 on TensorFlow 2.21.0's C library from the tensorflow-cpu wheel (pip)`,
    );
  }
  // TensorFlow logs INFO lines on stderr as it loads (oneDNN, CPU features), in every worker;
  // warnings and errors still show. Read when the library loads; a value the user set is kept.
  process.env.TF_CPP_MIN_LOG_LEVEL ??= '1';
  try {
    await import(specifier);
  } catch (error) {
    throw new BackendUnavailableError(
      `${specifier} is installed but does not load (${(error as Error).message.split('\n')[0]}): set it up again with ${tensorflowSetup()}`,
    );
  }
  if (!(await tf.setBackend('tensorflow'))) throw new BackendUnavailableError('the tensorflow backend failed to initialize');
  const backend = tf.backend() as TfNodeBackend;
  const packageVersion = (require(`${specifier}/package.json`) as { version: string }).version;
  running = { package: specifier, packageVersion, tensorflow: backend.binding.TF_Version };
  return {
    name: 'tensorflow',
    reason: `${reason}; TensorFlow ${running.tensorflow} (TF_Version) through ${specifier} ${packageVersion}`,
    adapter: null,
    isUsingGpuDevice: backend.isUsingGpuDevice ?? false,
    // Its GPU (if any) is CUDA behind TensorFlow, not a WebGPU device; whether it copies host arrays is not verified.
    capabilities: recordCapabilities({ hasGpuDevice: false, gpuTimestamps: false, copiesHostArrays: false }),
    transfers: installTensorflowTransferCounter(backend),
    upload(tensor) {
      // tfjs-node creates the TF tensor (and its copy to GPU:0) on first use; do it now.
      backend.getInputTensorIds([tensor]);
    },
    async sync(tensor) {
      // TensorFlow runs GPU ops asynchronously on a stream: reading one element of the output
      // waits for everything that produced it.
      const probe = tf.tidy(() => tensor.flatten().slice(0, 1));
      await probe.data();
      probe.dispose();
    },
  };
}
