/**
 * Doctor's work in a browser page (`gtp doctor --browser chromium`): the WebGPU adapter's info and
 * limits, whether tfjs starts on WebGPU and on WebGL (and why not), and the rate of tfjs uploads of
 * a float32 tensor at doctor's sizes on each, synced with the device. Runs in the page, so it
 * reaches no host module; what it finds goes back to Node as plain JSON (findings.ts).
 */
import { startBrowserBackend } from '../../backend/browser-start.js';
import { runningBackendName } from '../../backend/capabilities.js';
import { BackendUnavailableError } from '../../backend/errors.js';
import { timeTensorUploads } from '../tensor-uploads.js';
import type { PageAdapter, PageApi, PageFindings, PageGl, PagePlan } from './findings.js';

/** The page's globals doctor reads. */
interface PageGlobals {
  readonly navigator: { readonly gpu?: GPU; readonly userAgent: string };
  readonly isSecureContext: boolean;
  readonly document: { createElement(tag: 'canvas'): HTMLCanvasElement };
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Every numeric attribute of GPUSupportedLimits (WebIDL attributes are enumerable getters on its prototype). */
function limitsOf(limits: GPUSupportedLimits): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key in limits) {
    const value = (limits as unknown as Record<string, unknown>)[key];
    if (typeof value === 'number') out[key] = value;
  }
  return out;
}

/** The adapter navigator.gpu gives, on its own (tfjs asks for its own when it starts), or why there is none. */
async function probeAdapter(page: PageGlobals): Promise<{ adapter: PageAdapter | null; whyNot: string | null }> {
  const gpu = page.navigator.gpu;
  if (!gpu)
    return {
      adapter: null,
      whyNot: `no navigator.gpu: WebGPU is off in this browser${page.isSecureContext ? '' : ' (and the page is not a secure context)'}; Chromium on Linux needs --enable-unsafe-webgpu`,
    };
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' }).catch((error: unknown) => message(error));
  if (typeof adapter === 'string') return { adapter: null, whyNot: `navigator.gpu.requestAdapter() threw: ${adapter}` };
  if (!adapter)
    return { adapter: null, whyNot: 'navigator.gpu.requestAdapter() gave null: no adapter (GPU blocklisted, or WebGPU disabled: see chrome://gpu)' };
  const info = adapter.info as GPUAdapterInfo & { readonly isFallbackAdapter?: boolean };
  return {
    adapter: {
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      device: info.device ?? '',
      description: info.description ?? '',
      isFallbackAdapter: typeof info.isFallbackAdapter === 'boolean' ? info.isFallbackAdapter : null,
      features: [...adapter.features].sort(),
      limits: limitsOf(adapter.limits),
    },
    whyNot: null,
  };
}

/** A WebGL 2 context of its own, for the renderer's name, or why none could be made (the context-creation error's words). */
function probeGl(page: PageGlobals): { gl: PageGl | null; whyNot: string | null } {
  const canvas = page.document.createElement('canvas');
  let status = '';
  canvas.addEventListener('webglcontextcreationerror', (event) => {
    status = (event as WebGLContextEvent).statusMessage;
  });
  const gl = canvas.getContext('webgl2');
  if (!gl) return { gl: null, whyNot: `WebGL 2 context creation failed${status ? `: ${status}` : ''}` };
  const debug = gl.getExtension('WEBGL_debug_renderer_info');
  const found = {
    vendor: String(gl.getParameter(debug ? debug.UNMASKED_VENDOR_WEBGL : gl.VENDOR)),
    renderer: String(gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER)),
    version: String(gl.getParameter(gl.VERSION)),
  };
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return { gl: found, whyNot: null };
}

/**
 * Starts tfjs on `api` (what tfjs then runs on is read back: a fallback is refused, browser-start.ts)
 * and times tfjs uploads of a float32 tensor at each size (tensor-uploads.ts), as doctor's Node side
 * times the same uploads. Sizes above `maxBytes` (the adapter's maxBufferSize) are left out.
 */
async function startAndUpload(api: 'webgpu' | 'webgl', plan: PagePlan, maxBytes: number, say: (line: string) => void): Promise<PageApi> {
  let context: Awaited<ReturnType<typeof startBrowserBackend>>;
  try {
    context = await startBrowserBackend(api, null);
  } catch (error) {
    // A refusal says why the browser does not offer it; anything else is the page's own failure, named as such.
    const why = error instanceof BackendUnavailableError ? message(error) : `starting it failed in the page, not refused by the browser: ${message(error)}`;
    return { started: false, whyNot: why, running: runningBackendName(), uploads: [], uploadError: null };
  }
  const { uploads, error } = await timeTensorUploads(context, plan, maxBytes, say);
  return { started: true, whyNot: null, running: context.name, uploads, uploadError: error };
}

/** Everything doctor asks of the page: WebGPU first (adapter, start, uploads), then WebGL (context, start, uploads). */
export async function pageFindings(
  plan: PagePlan,
  say: (line: string) => void = () => {},
  page: PageGlobals = globalThis as unknown as PageGlobals,
): Promise<PageFindings> {
  const probe = await probeAdapter(page);
  const webgpu = probe.adapter
    ? await startAndUpload('webgpu', plan, probe.adapter.limits.maxBufferSize ?? Number.POSITIVE_INFINITY, say)
    : { started: false, whyNot: probe.whyNot, running: null, uploads: [], uploadError: null };
  const gl = probeGl(page);
  const webgl = await startAndUpload('webgl', plan, Number.POSITIVE_INFINITY, say);
  return {
    userAgent: page.navigator.userAgent,
    secureContext: page.isSecureContext,
    webgpu: { ...webgpu, adapter: probe.adapter },
    webgl: { ...webgl, gl: gl.gl, whyNot: webgl.whyNot && gl.whyNot ? `${gl.whyNot}; ${webgl.whyNot}` : webgl.whyNot },
  };
}
