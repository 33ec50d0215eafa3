/**
 * What `gtp doctor --browser` asks of its page and what the page finds, as plain JSON (they cross
 * between Node and the page through vitest's browser commands). Types only: the page imports this,
 * and so does the Node side that judges the findings (src/doctor/browser-section.ts).
 */

/** The page's two APIs, each started through tfjs as perf's browser runs start them (backend/browser-start.ts). */
export const PAGE_APIS = ['webgpu', 'webgl'] as const;
export type PageApiName = (typeof PAGE_APIS)[number];

/** One upload size the page times: `warmup` untimed repetitions, then `reps` timed ones. */
export interface PageUploadSize {
  readonly bytes: number;
  readonly warmup: number;
  readonly reps: number;
}

/** What Node asks of the page (browser command gtpDoctorPlan): doctor's upload sizes of this run (--quick or not). */
export interface PagePlan {
  readonly uploads: readonly PageUploadSize[];
}

/** The milliseconds of each timed upload of `bytes` (host monotonic clock, stopped after the device had the tensor). */
export interface PageUpload {
  readonly bytes: number;
  readonly times: readonly number[];
}

/** One API in the page: whether tfjs started on it (read back after setBackend), why not, and its uploads. */
export interface PageApi {
  readonly started: boolean;
  /** Why it did not start (requestAdapter null, context creation failed, tfjs fell back): the error's words; null when started. */
  readonly whyNot: string | null;
  /** What tfjs runs on after asking for this API (tf.getBackend()), or null when nothing runs. */
  readonly running: string | null;
  readonly uploads: readonly PageUpload[];
  /** Why the uploads stopped short (an error at one size), or null. */
  readonly uploadError: string | null;
}

/** The page's WebGPU adapter as navigator.gpu.requestAdapter() gives it (GPUAdapterInfo, its features and limits). */
export interface PageAdapter {
  readonly vendor: string;
  readonly architecture: string;
  readonly device: string;
  /** Chromium leaves it empty for SwiftShader. */
  readonly description: string;
  readonly isFallbackAdapter: boolean | null;
  readonly features: readonly string[];
  /** Every numeric limit of GPUSupportedLimits (maxBufferSize, maxStorageBufferBindingSize, ...). */
  readonly limits: Readonly<Record<string, number>>;
}

/** WebGL's renderer as WEBGL_debug_renderer_info names it (ANGLE's string), where a WebGL 2 context was made. */
export interface PageGl {
  readonly vendor: string;
  readonly renderer: string;
  readonly version: string;
}

/** Everything the page found (browser command gtpDoctorFindings). */
export interface PageFindings {
  readonly userAgent: string;
  /** Whether the page is a secure context (navigator.gpu exists only in one). */
  readonly secureContext: boolean;
  readonly webgpu: PageApi & { readonly adapter: PageAdapter | null };
  readonly webgl: PageApi & { readonly gl: PageGl | null };
}
