import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Whether tfjs-node's TensorFlow binding is there, apart from its start (tensorflow.ts) so that a
 * flag check asks without loading tfjs. Two packages carry the same binding (binding/*.cc and
 * dist/ of 4.22.0 are identical): @tensorflow/tfjs-node-gpu (the optional peer; TensorFlow built
 * with CUDA) and @tensorflow/tfjs-node (the CPU build; what `npm run setup:tensorflow` installs,
 * on TensorFlow 2.21's C library from the tensorflow-cpu wheel). The GPU one wins when both are.
 */

export const TFJS_NODE_GPU = '@tensorflow/tfjs-node-gpu';
export const TFJS_NODE = '@tensorflow/tfjs-node';

/**
 * Whether the package resolves and has its native addon (lib/napi-v<N>/tfjs_binding.node): one
 * installed without it (an install script skipped, a failed build) cannot start, so it does not count.
 */
function hasBinding(name: string): boolean {
  let root: string;
  try {
    root = dirname(fileURLToPath(import.meta.resolve(`${name}/package.json`)));
  } catch {
    return false;
  }
  const lib = join(root, 'lib');
  if (!existsSync(lib)) return false;
  return readdirSync(lib).some((dir) => dir.startsWith('napi-v') && existsSync(join(lib, dir, 'tfjs_binding.node')));
}

/** The package name of the installed binding, the GPU one first; null when neither is there with its addon. */
export function tensorflowPackage(): string | null {
  return [TFJS_NODE_GPU, TFJS_NODE].find(hasBinding) ?? null;
}

/** True when @tensorflow/tfjs-node-gpu or @tensorflow/tfjs-node is installed with its native addon. */
export function isTensorflowInstalled(): boolean {
  return tensorflowPackage() !== null;
}
