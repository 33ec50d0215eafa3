/**
 * The backends of a browser page: webgpu on the browser's own navigator.gpu, webgl through
 * tfjs-backend-webgl. Runs in the page, so nothing here reaches a host module.
 */
import { BackendUnavailableError } from './errors.js';
import type { BackendContext, BackendName } from './types.js';
import { startWebGl, type WebGlGlobals } from './webgl.js';
import { startWebGpuOn } from './webgpu-device.js';
import type { WebGpuGlobals } from './webgpu-transfer-counter.js';

import type { BrowserBackendName } from './browser-backends.js';

export { BROWSER_BACKENDS, type BrowserBackendName, isBrowserBackend } from './browser-backends.js';

/** The page's globals the backends need: navigator.gpu and the WebGPU and WebGL classes. */
type PageGlobals = WebGlGlobals & Partial<WebGpuGlobals> & { navigator: { gpu?: GPU } };

/**
 * Starts `name` in this page; with `required`, refuses any other (PERF_REQUIRE_BACKEND). Without
 * navigator.gpu (not a secure context, WebGPU off or blocklisted) webgpu is refused with why.
 */
export async function startBrowserBackend(
  name: BrowserBackendName,
  required: BackendName | null,
  page: PageGlobals = globalThis as unknown as PageGlobals,
): Promise<BackendContext> {
  if (required && required !== name) throw new BackendUnavailableError(`PERF_REQUIRE_BACKEND=${required} but the run asked for ${name}`);
  const reason = `asked for --backend ${name} in the browser`;
  if (name === 'webgl') return startWebGl(page, reason);
  const gpu = page.navigator.gpu;
  if (!gpu || !page.GPUDevice || !page.GPUQueue || !page.GPUBuffer) {
    throw new BackendUnavailableError(
      'this page has no navigator.gpu: WebGPU is off in this browser (Chromium on Linux needs --enable-unsafe-webgpu; a page must be a secure context such as http://127.0.0.1)',
    );
  }
  const globals: WebGpuGlobals = { GPUDevice: page.GPUDevice, GPUQueue: page.GPUQueue, GPUBuffer: page.GPUBuffer };
  return startWebGpuOn(gpu, globals, reason, 'navigator.gpu.requestAdapter() gave no adapter (GPU blocklisted, or WebGPU disabled: see chrome://gpu)');
}
