/**
 * Whether the optional peer @tensorflow/tfjs-node-gpu is there, apart from its start
 * (tensorflow.ts) so that a flag check asks without loading tfjs.
 */

export const TFJS_NODE_GPU = '@tensorflow/tfjs-node-gpu';

/** True when the optional peer @tensorflow/tfjs-node-gpu can be resolved. */
export function isTensorflowInstalled(): boolean {
  try {
    import.meta.resolve(TFJS_NODE_GPU);
    return true;
  } catch {
    return false;
  }
}
