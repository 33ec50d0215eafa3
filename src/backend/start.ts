import { BackendUnavailableError } from './errors.js';
import { startCpu, startTensorflow, startWasm } from './host-backends.js';
import { TFJS_NODE_GPU, tensorflowPackage } from './tensorflow-installed.js';
import type { BackendChoice, BackendContext, BackendName } from './types.js';
import { startWebGpu } from './webgpu.js';

const starters: Record<BackendName, (reason: string) => Promise<BackendContext>> = {
  webgpu: startWebGpu,
  wasm: startWasm,
  cpu: startCpu,
  tensorflow: startTensorflow,
  webgl: () => Promise.reject(new BackendUnavailableError('webgl runs in a browser only: gtp perf --browser chromium --backend webgl')),
};

/**
 * auto: webgpu when an adapter exists, else tensorflow when @tensorflow/tfjs-node-gpu is installed, else wasm.
 * Each fallback keeps the reason the better backend was passed over.
 */
async function startAuto(): Promise<BackendContext> {
  try {
    return await startWebGpu('auto: a WebGPU adapter was found');
  } catch (error) {
    if (!(error instanceof BackendUnavailableError)) throw error;
    const why = `auto: webgpu unavailable (${error.message})`;
    // Only the GPU package: @tensorflow/tfjs-node (the CPU build setup:tensorflow installs) runs when asked for by name.
    if (tensorflowPackage() === TFJS_NODE_GPU) return startTensorflow(`${why}; ${TFJS_NODE_GPU} is installed`);
    return startWasm(`${why}; ${TFJS_NODE_GPU} not installed; wasm is the fastest fallback`);
  }
}

/** Starts the chosen backend; with `required`, refuses to run on any other. */
export async function startBackend(choice: BackendChoice, required: BackendName | null): Promise<BackendContext> {
  const context = choice === 'auto' ? await startAuto() : await starters[choice](`asked for --backend ${choice}`);
  if (required && context.name !== required) {
    throw new BackendUnavailableError(`PERF_REQUIRE_BACKEND=${required} but the run would use ${context.name}: ${context.reason}`);
  }
  return context;
}

/** One line saying what runs and why; loud when a software adapter or a fallback is in use. */
export function describeBackend(context: BackendContext): string {
  const parts = [`backend: ${context.name} (${context.reason})`];
  if (context.adapter) {
    const a = context.adapter;
    parts.push(`adapter: ${a.vendor} ${a.architecture} "${a.description}"`);
    if (a.isSoftware) parts.push('SOFTWARE adapter: a CPU rasterizer; its numbers describe it, not a GPU');
  }
  if (context.isUsingGpuDevice !== null) parts.push(`TensorFlow found a GPU: ${context.isUsingGpuDevice}`);
  if (!context.capabilities.hasGpuDevice) parts.push('webgpu was NOT exercised');
  return parts.join(' | ');
}
