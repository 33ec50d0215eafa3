/**
 * Images in a browser page (section 7 in the browser, issue 43): decoded by the browser
 * (`createImageBitmap` from the file's bytes), then brought to the device three ways, each ending
 * in the same float32 (x - mean) / std tensor of [height, width, 3]:
 * - cpu-normalize: CPU pixels (an OffscreenCanvas's getImageData) normalized on the host, sent as float32;
 * - device-normalize: the same CPU pixels sent raw and normalized on the device (packed uint8 words
 *   and the NormalizePackedBytes kernel where the backend has it; else, webgl, an int32 tensor);
 * - gpu-import: `tf.browser.fromPixels(ImageBitmap)`, the browser's own import into a texture
 *   (webgpu: copyExternalImageToTexture; webgl: texImage2D from the bitmap), normalized on the device.
 * Runs in the page only (DOM APIs); nothing here reaches a host module.
 */
import * as tf from '@tensorflow/tfjs';
import { onDevice } from '../backend/synced-transfers.js';
import { imagePixelsOf, type TransferTotals } from '../backend/transfer-counter.js';
import type { BackendContext } from '../backend/types.js';
import { HOST_ROUNDINGS, NORMALIZE_ROUNDINGS, normalizeAgreementBound } from '../measure/float-bounds.js';
import { hasPackedKernel } from '../transfer/kernels/normalize-packed-kernel.js';
import { type ChannelNormalization, normalizeChannelsOnHost } from '../transfer/normalization.js';
import { bytesMetric, exactMetric, type MetricInput } from '../results/metrics.js';
import { sendFloat32, sendPayload } from '../transfer/strategies/send-payload.js';

export const IMAGE_STRATEGIES = ['cpu-normalize', 'device-normalize', 'gpu-import'] as const;

/** What the page brings to the device: a decoded image, or a video element at its current frame. */
export type PageImageSource = ImageBitmap | HTMLVideoElement;

/** A source's pixel size: a video element's is its video's (videoWidth), not the element's. */
export function sourceSize(source: PageImageSource): { readonly height: number; readonly width: number } {
  return 'videoWidth' in source ? { height: source.videoHeight, width: source.videoWidth } : { height: source.height, width: source.width };
}
export type ImageStrategyId = (typeof IMAGE_STRATEGIES)[number];

/**
 * Decodes an image file in the page. No colour-space conversion and no premultiplied alpha: the
 * pixels as the file stores them, as the COCO reader's sharp decode and PIL's convert('RGB') read
 * them (no ICC, alpha dropped, not composited).
 */
export function decodeInPage(bytes: Uint8Array): Promise<ImageBitmap> {
  return createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
}

/** RGBA pixels (getImageData's order) to RGB, the alpha dropped as the COCO reader drops it. */
export function rgbaToRgb(rgba: ArrayLike<number>, into: Uint8Array = new Uint8Array((rgba.length / 4) * 3)): Uint8Array {
  if (rgba.length % 4 !== 0) throw new RangeError(`rgbaToRgb: ${rgba.length} values are not whole RGBA pixels`);
  if (into.length !== (rgba.length / 4) * 3) throw new RangeError(`rgbaToRgb: into has ${into.length} values, ${(rgba.length / 4) * 3} needed`);
  for (let p = 0, q = 0; p < rgba.length; p += 4, q += 3) {
    into[q] = rgba[p]!;
    into[q + 1] = rgba[p + 1]!;
    into[q + 2] = rgba[p + 2]!;
  }
  return into;
}

/** Pixels of RGBA values whose alpha is below 255 (translucent: a 2D canvas rounds their colour). */
export function translucentPixels(rgba: ArrayLike<number>): number {
  let count = 0;
  for (let p = 3; p < rgba.length; p += 4) if (rgba[p]! < 255) count++;
  return count;
}

/** The largest difference between two byte images and how many values differ. */
export function levelDiff(a: ArrayLike<number>, b: ArrayLike<number>): { max: number; differing: number } {
  if (a.length !== b.length) throw new RangeError(`levelDiff: ${a.length} values against ${b.length}`);
  let max = 0;
  let differing = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (d > 0) differing++;
    if (d > max) max = d;
  }
  return { max, differing };
}

/** The pixels tf.browser.fromPixels imports from a bitmap or a video's current frame, read back (for checks, outside any count). */
export async function importedPixels(source: PageImageSource): Promise<Uint8Array> {
  const t = tf.browser.fromPixels(source, 3);
  try {
    return Uint8Array.from((await t.data()) as Int32Array);
  } finally {
    t.dispose();
  }
}

/** CPU pixels of a bitmap: drawn into one reused OffscreenCanvas whose 2D context lives on the CPU (willReadFrequently), read with getImageData. */
export class CanvasPixels {
  private readonly context: OffscreenCanvasRenderingContext2D;
  constructor() {
    const context = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('this page has no OffscreenCanvas 2D context: CPU pixels cannot be read');
    this.context = context;
  }

  /** The source's [height, width, 3] RGB bytes. */
  rgb(source: PageImageSource): Uint8Array {
    return rgbaToRgb(this.rgba(source));
  }

  /**
   * The bitmap's RGBA bytes as getImageData gives them. A 2D canvas stores premultiplied alpha, so
   * where alpha < 255 the colour comes back rounded twice (measured: up to 2 levels on an RGBA PNG).
   */
  rgba(source: PageImageSource): Uint8ClampedArray {
    const { height, width } = sourceSize(source);
    const canvas = this.context.canvas;
    canvas.width = width;
    canvas.height = height;
    this.context.clearRect(0, 0, width, height);
    this.context.drawImage(source, 0, 0);
    return this.context.getImageData(0, 0, width, height).data;
  }
}

/** Per-channel mean and std kept on the device for the run (like a model's weights): uploaded once, not per image. */
export class DeviceChannelNormalization {
  private readonly mean: tf.Tensor1D;
  private readonly std: tf.Tensor1D;
  constructor(readonly n: ChannelNormalization) {
    this.mean = tf.keep(tf.tensor1d([...n.mean], 'float32'));
    this.std = tf.keep(tf.tensor1d([...n.std], 'float32'));
  }

  /** (x - mean) / std of int32 [.., 3] pixels, on the device. */
  apply(pixels: tf.Tensor): tf.Tensor {
    return tf.tidy(() => tf.div(tf.sub(tf.cast(pixels, 'float32'), this.mean), this.std));
  }

  dispose(): void {
    this.mean.dispose();
    this.std.dispose();
  }
}

/**
 * Bytes tfjs-backend-webgl 4.22 uploads for an [height, width, 3] float32 or int32 tensor: it lays the
 * tensor out as an [height * width, 3] texture (webgl_util.getTextureShapeFromLogicalShape) and
 * uploads it densely as RGBA float32 texels of 2x2 values (uploadDenseMatrixToTexture), so 3 channels
 * are padded to 4: ceil(hw / 2) x 2 texels of 16 B, 16 B a pixel. Holds while height * width fits
 * the texture size limit (WEBGL_MAX_TEXTURE_SIZE; tfjs squarifies larger ones). Measured in
 * Chromium 156 on SwiftShader, 2026-12-06: 639,392 B for the 12 fixture images (39,962 pixels).
 */
export function webglImageTensorBytes(height: number, width: number): number {
  return Math.ceil((height * width) / 2) * 2 * 16;
}

/** One way from a decoded bitmap (or a video's current frame) to the normalized tensor on the device. */
export interface ImageStrategy {
  readonly id: ImageStrategyId;
  /** What crosses, in words, for a metric's detail. */
  readonly says: string;
  toDevice(source: PageImageSource): tf.Tensor;
}

/** The three strategies on `context`, normalizing with `n` (constants: the same n, kept on the device). */
export function imageStrategies(context: BackendContext, constants: DeviceChannelNormalization, canvas: CanvasPixels = new CanvasPixels()): ImageStrategy[] {
  const n = constants.n;
  const packed = hasPackedKernel();
  return [
    {
      id: 'cpu-normalize',
      says: 'CPU pixels (getImageData) normalized on the host, sent as float32 (12 B a pixel)',
      toDevice(source) {
        const { height, width } = sourceSize(source);
        return sendFloat32(context, normalizeChannelsOnHost(canvas.rgb(source), n), [height, width, 3]);
      },
    },
    {
      id: 'device-normalize',
      says: packed
        ? 'CPU pixels (getImageData) sent raw as packed uint8 words (3 B a pixel), normalized on the device by NormalizePackedBytes'
        : 'CPU pixels (getImageData) sent raw as an int32 tensor (12 B a pixel: this backend has no uint8 tensor), normalized on the device',
      toDevice(source) {
        const rgb = canvas.rgb(source);
        const { height, width } = sourceSize(source);
        const shape = [height, width, 3];
        if (packed) return sendPayload(context, { dtype: 'uint8', values: rgb, shape }, n);
        const ints = tf.tensor(Int32Array.from(rgb), shape, 'int32');
        context.upload(ints);
        try {
          return constants.apply(ints);
        } finally {
          ints.dispose();
        }
      },
    },
    {
      id: 'gpu-import',
      says: "tf.browser.fromPixels(ImageBitmap): the browser's import into a texture, no CPU pixels, normalized on the device",
      toDevice(source) {
        const pixels = tf.browser.fromPixels(source, 3);
        try {
          return constants.apply(pixels);
        } finally {
          pixels.dispose();
        }
      },
    },
  ];
}

/** What one pass over the images moved (data bytes, image pixels) and its milliseconds, the outputs resident on the device. */
export interface ImagePass {
  readonly bytes: TransferTotals;
  /** Pixels of image sources imported without host arrays (0 where the counter does not count them). */
  readonly imagePixels: number;
  readonly ms: number;
}

/**
 * Runs `strategy` on every bitmap, the clock stopping once every output is on the device (synced,
 * as timeSynced); `keep` receives the outputs (else they are disposed).
 */
export async function imagePass(
  context: BackendContext,
  strategy: ImageStrategy,
  bitmaps: readonly PageImageSource[],
  keep?: (outputs: tf.Tensor[]) => void,
): Promise<ImagePass> {
  const pixelsBefore = imagePixelsOf(context.transfers) ?? 0;
  const { result, bytes, ms } = await onDevice(context, `image strategy ${strategy.id}`, () => bitmaps.map((b) => strategy.toDevice(b)));
  const imagePixels = (imagePixelsOf(context.transfers) ?? 0) - pixelsBefore;
  if (keep) keep(result);
  else for (const t of result) t.dispose();
  return { bytes, imagePixels, ms };
}

/**
 * How far two strategies' values may lie apart (measure/float-bounds.ts): cpu-normalize rounds once
 * on the host (HOST_ROUNDINGS); the device paths at most NORMALIZE_ROUNDINGS each (the constants
 * rounded to float32, the subtraction, WGSL's or GLSL ES 3.00's 2.5-ulp division).
 */
export function imageAgreementBound(n: ChannelNormalization, a: ImageStrategyId, b: ImageStrategyId): number {
  const roundings = (s: ImageStrategyId) => (s === 'cpu-normalize' ? HOST_ROUNDINGS : NORMALIZE_ROUNDINGS);
  return normalizeAgreementBound(n, roundings(a), roundings(b));
}

/** What one strategy moved: data bytes and image pixels, counted at the API. */
export interface ImageTransfers {
  readonly bytes: number;
  readonly imagePixels: number;
}

/**
 * What each strategy moves for images (or frames) of these sizes on this backend, exactly:
 * cpu-normalize a float32 tensor (12 B a pixel; webgl: webglImageTensorBytes); device-normalize
 * packed uint8 words, each image padded to a whole word (without the packed kernel, webgl: an int32
 * tensor, as much as float32); gpu-import no CPU bytes, its pixels imported (the normalization
 * constants were uploaded once, before).
 */
export function expectedImageTransfers(
  backend: string,
  sizes: ReadonlyArray<{ readonly height: number; readonly width: number }>,
): Record<ImageStrategyId, ImageTransfers> {
  const sum = (of: (h: number, w: number) => number) => sizes.reduce((a, s) => a + of(s.height, s.width), 0);
  // The tensor's layout is the backend's (webgl: RGBA texels); whether raw bytes go packed is the kernel's.
  const tensorBytes = sum((h, w) => (backend === 'webgl' ? webglImageTensorBytes(h, w) : h * w * 12));
  return {
    'cpu-normalize': { bytes: tensorBytes, imagePixels: 0 },
    'device-normalize': { bytes: hasPackedKernel() ? sum((h, w) => Math.ceil((h * w * 3) / 4) * 4) : tensorBytes, imagePixels: 0 },
    'gpu-import': { bytes: 0, imagePixels: sum((h, w) => h * w) },
  };
}

/** The `<prefix>.bytes.<strategy>` and `<prefix>.image-pixels.<strategy>` metrics of what `strategy` moved for `what`. */
export function imageTransferMetrics(prefix: string, context: BackendContext, strategy: ImageStrategy, moved: ImageTransfers, what: string): MetricInput[] {
  const labels = { strategy: strategy.id };
  const said = `${what}, on ${context.name}: ${strategy.says}`;
  return [
    bytesMetric(`${prefix}.bytes.${strategy.id}`, moved.bytes, 'measured', {
      detail: `data bytes counted at the ${context.name} API (${context.transfers.boundary}) for ${said}`,
      labels,
    }),
    exactMetric(`${prefix}.image-pixels.${strategy.id}`, moved.imagePixels, 'pixels', 'measured', {
      detail: `pixels of image sources imported without a host array the page holds (an image or a video frame into a texture), counted at the ${context.name} API, for ${said}`,
      labels,
    }),
  ];
}
