/**
 * What one browser page (one browser launch: one process) provides to the perf files it runs:
 * the backend, started once, its profile, the MNIST images, and recording into the run record.
 * The page's counterpart of session.ts and record.ts; it runs in the browser, so it reaches no
 * host module: what only the Node host can read (the CPU, the data files) comes through vitest's
 * `provide` and the browser commands of runner/browser.ts.
 */
import { inject, type ProvidedContext } from 'vitest';
import { commands } from 'vitest/browser';
import { isBrowserBackend, startBrowserBackend } from '../backend/browser-start.js';
import { BackendUnavailableError } from '../backend/errors.js';
import { buildHardwareProfile, type ProfileHost } from '../backend/profile.js';
import type { BackendContext } from '../backend/types.js';
import { makeImageDataset, type ImageDataset } from '../data/dataset.js';
import type { MetricInput } from '../results/metrics.js';
import { encodeNonFinite } from '../results/non-finite.js';
import { pageMetricsRefusal } from './page-limits.js';
import type { RunProfile } from '../results/schema.js';
import { describeCapabilities } from '../transfer/capabilities.js';
import { type RecordingTask, recordedOf } from './record-meta.js';
import { itLeavesNoTensorsRecorded } from './leak-spec.js';
import type { LeakCheck } from '../measure/memory.js';
import { SIZES, type ScaleSizes } from './sizes.js';

/** The MNIST images as the Node host hands them to the page (base64: commands carry JSON). */
export interface BrowserMnist {
  readonly images: string;
  readonly labels: string;
  readonly count: number;
  readonly height: number;
  readonly width: number;
  readonly channels: number;
  readonly source: string;
  /** The data set in the run record's words. */
  readonly described: string;
}

/** One image file as the Node host hands it to the page: its bytes, to decode there, and what Node's decoder (sharp) made of it. */
export interface BrowserImageFile {
  /** The file name in the images folder. */
  readonly file: string;
  /** The file's bytes (base64). */
  readonly bytes: string;
  /** Node's decoded [height, width, 3] RGB pixels (sharp, as the COCO reader reads them; base64). */
  readonly pixels: string;
  readonly height: number;
  readonly width: number;
}

/** The run's COCO images, as the page gets them. */
export interface BrowserCocoImages {
  readonly images: readonly BrowserImageFile[];
  /** The data set in the run record's words. */
  readonly described: string;
}

/** A COCO image in the page: its file's bytes and Node's decoded pixels. */
export interface PageImageFile {
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly nodePixels: Uint8Array;
  readonly height: number;
  readonly width: number;
}

/** One video file as the Node host hands it to the page: its bytes, to decode there, and ffmpeg's frames of it. */
export interface BrowserVideoFile {
  /** The file's path under the data set's root ('train/abseiling/abseiling_001.mp4'). */
  readonly file: string;
  /** The file's bytes (base64). */
  readonly bytes: string;
  /** Frames ffmpeg decodes from its first video stream (every frame, in order). */
  readonly frames: number;
  readonly height: number;
  readonly width: number;
  /** The stream's codec as ffprobe names it ('h264'). */
  readonly codec: string;
  /** ffmpeg's [frames, height, width, 3] RGB frames at the video's own size (rgb24; base64). */
  readonly pixels: string;
}

/** The run's Kinetics videos, as the page gets them. */
export interface BrowserKineticsVideos {
  readonly videos: readonly BrowserVideoFile[];
  /** The data set in the run record's words. */
  readonly described: string;
}

/** A Kinetics video in the page: its file's bytes and ffmpeg's frames. */
export interface PageVideoFile {
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly frames: number;
  readonly height: number;
  readonly width: number;
  readonly codec: string;
  readonly nodePixels: Uint8Array;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Node host's CPU, OS and package versions, with the browser it launched (runner/browser.ts). */
    browserHost: ProfileHost;
  }
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** The run's MNIST images, read by the Node host (mnistSource, --mnist-dir or the package). */
    gtpMnist: () => Promise<BrowserMnist>;
    /** The first `count` images of the run's COCO data (--coco-root/--coco-ann or the fixture), read and decoded by the Node host. */
    gtpCocoImages: (count: number) => Promise<BrowserCocoImages>;
    /** The first `count` decodable videos of the run's Kinetics split (--kinetics-root or the fixture), probed and decoded by the Node host's ffmpeg. */
    gtpKineticsVideos: (count: number) => Promise<BrowserKineticsVideos>;
  }
}

interface PageSession {
  backend?: Promise<{ context: BackendContext; profile: RunProfile }>;
  mnist?: Promise<ImageDataset>;
  coco?: Promise<PageImageFile[]>;
  kinetics?: Promise<PageVideoFile[]>;
  read: Record<string, string>;
}

const page: PageSession = { read: {} };

/** The run configuration the command line provided. */
export function useBrowserConfig(): ProvidedContext['runConfig'] {
  return inject('runConfig');
}

/** The sample sizes of this run's scale. */
export function useBrowserSizes(): ScaleSizes {
  return SIZES[useBrowserConfig().scale];
}

async function start(): Promise<{ context: BackendContext; profile: RunProfile }> {
  const config = useBrowserConfig();
  // auto in a browser: WebGPU, the backend the article's kernels run on.
  const name = config.backend === 'auto' ? 'webgpu' : config.backend;
  if (!isBrowserBackend(name)) throw new BackendUnavailableError(`--backend ${name} does not run in a browser: use webgpu or webgl`);
  const context = await startBrowserBackend(name, config.requireBackend);
  const profile = buildHardwareProfile(context, describeCapabilities(context), inject('browserHost'));
  return { context, profile };
}

/** The backend of this page (webgpu or webgl), started once; a failed start fails every file the same way. */
export async function useBrowserBackend(): Promise<BackendContext> {
  page.backend ??= start();
  return (await page.backend).context;
}

function bytesOf(base64: string): Uint8Array {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** The run's MNIST images (read by the Node host once per page). */
export function useBrowserMnist(): Promise<ImageDataset> {
  page.mnist ??= commands.gtpMnist().then((m) => {
    page.read.mnist = m.described;
    return makeImageDataset({ ...m, images: bytesOf(m.images), labels: bytesOf(m.labels) });
  });
  return page.mnist;
}

/** The first `count` images of the run's COCO data: file bytes to decode in the page, and Node's pixels (read once per page). */
export function useBrowserCocoImages(count: number): Promise<PageImageFile[]> {
  page.coco ??= commands.gtpCocoImages(count).then((c) => {
    page.read.coco = c.described;
    return c.images.map((i) => ({ file: i.file, bytes: bytesOf(i.bytes), nodePixels: bytesOf(i.pixels), height: i.height, width: i.width }));
  });
  return page.coco;
}

/** The first `count` decodable videos of the run's Kinetics split: file bytes to decode in the page, and ffmpeg's frames (read once per page). */
export function useBrowserKineticsVideos(count: number): Promise<PageVideoFile[]> {
  page.kinetics ??= commands.gtpKineticsVideos(count).then((k) => {
    page.read.kinetics = k.described;
    return k.videos.map((v) => ({ ...v, bytes: bytesOf(v.bytes), nodePixels: bytesOf(v.pixels) }));
  });
  return page.kinetics;
}

/** What this page recorded so far (one page per process), against its bounds (page-limits.ts). */
const recorded = { metrics: 0, bytes: 0 };

/**
 * Adds metrics to the run record from a test in the page; the scenario is the test's perf file.
 * NaN and ±Infinity are marked (results/non-finite.ts), so that the host names them as they are.
 */
export async function recordBrowserMetrics(task: RecordingTask, ...metrics: MetricInput[]): Promise<void> {
  const encoded = metrics.map((m) => encodeNonFinite(m));
  const adding = { metrics: encoded.length, bytes: JSON.stringify(encoded).length };
  const refusal = pageMetricsRefusal(recorded, adding);
  if (refusal) {
    // Thrown without a stack: the line says all there is (the test that called is named beside it).
    const error = new Error(refusal);
    error.stack = `Error: ${refusal}`;
    throw error;
  }
  page.backend ??= start();
  const { profile } = await page.backend;
  recorded.metrics += adding.metrics;
  recorded.bytes += adding.bytes;
  // One at a time: a spread of thousands of arguments overflows the stack.
  const list = recordedOf(task, profile, { ...page.read }).metrics;
  for (const m of encoded) list.push(m);
}

/** The last test of a scenario in the page: no tensor it created is still alive (leak-spec.ts), recorded in this run. */
export function itLeavesNoTensorsInPage(leaks: () => LeakCheck, skipped?: () => string | null): void {
  itLeavesNoTensorsRecorded(leaks, recordBrowserMetrics, skipped);
}
