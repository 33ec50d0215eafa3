import { tmpdir } from 'node:os';
import { BackendUnavailableError } from './errors.js';
import type { BackendContext } from './types.js';
import type { WebGpuGlobals } from './webgpu-transfer-counter.js';
import { startWebGpuOn } from './webgpu-device.js';
import { vulkanInstallHint } from './vulkan-hint.js';

export type { WebGpuBackendInternals } from './webgpu-device.js';

/** What to do without an adapter, as it can be done where this runs (vulkan-hint.ts). */
const SETUP_HINT = `${vulkanInstallHint()} Or run on another backend: --backend wasm.`;

/** Gives Node the WebGPU globals of the `webgpu` package (Dawn), without clobbering Node's own navigator. */
async function loadDawn(): Promise<{ gpu: GPU; globals: WebGpuGlobals }> {
  // The Vulkan loader prints an error line when XDG_RUNTIME_DIR is unset; any writable dir will do.
  process.env.XDG_RUNTIME_DIR ??= tmpdir();
  let dawn: typeof import('webgpu');
  try {
    dawn = await import('webgpu');
  } catch (error) {
    throw new BackendUnavailableError(`the 'webgpu' package (Dawn for Node) failed to load: ${String(error)}`);
  }
  const globals = dawn.globals as WebGpuGlobals & Record<string, unknown>;
  for (const [key, value] of Object.entries(globals)) {
    if (!(key in globalThis)) Object.defineProperty(globalThis, key, { value, configurable: true, writable: true });
  }
  // Timestamps are quantized to 65.536 us by default; the profiles want real kernel times.
  const gpu = dawn.create(['disable-dawn-features=timestamp_quantization']);
  const nav = (globalThis as { navigator?: object }).navigator;
  if (nav) Object.defineProperty(nav, 'gpu', { value: gpu, configurable: true });
  else Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true, writable: true });
  return { gpu, globals };
}

/**
 * Starts tfjs on a real WebGPU device through Dawn, with the byte counter installed before the
 * device exists. Throws BackendUnavailableError when no adapter can be had.
 */
export async function startWebGpu(reason: string): Promise<BackendContext> {
  const { gpu, globals } = await loadDawn();
  return startWebGpuOn(gpu, globals, reason, `Dawn found no WebGPU adapter (no usable Vulkan driver). ${SETUP_HINT}`);
}
