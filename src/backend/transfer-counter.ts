import * as tf from '@tensorflow/tfjs';

/** Bytes that crossed from the host into a backend, split by what carried them. */
export interface TransferTotals {
  /** Tensor data written by the host into backend memory (buffers, heap). */
  readonly dataBytes: number;
  /** Small parameters, not tensor data: WebGPU uniform buffers; on tensorflow scalars and int32 tensors (tensorflow-transfer-counter.ts). */
  readonly uniformBytes: number;
  /** Bytes read back from the device to the host. */
  readonly readbackBytes: number;
}

/** A running count of host<->backend traffic, read as before/after differences. */
export interface TransferCounter {
  /** Where the bytes are counted, said so a reader knows what the figure means. */
  readonly boundary: string;
  totals(): TransferTotals;
}

/** A counter whose totals are plain mutable fields; the installers below feed it. */
export class MutableTransferCounter implements TransferCounter {
  dataBytes = 0;
  uniformBytes = 0;
  readbackBytes = 0;
  constructor(readonly boundary: string) {}
  totals(): TransferTotals {
    return { dataBytes: this.dataBytes, uniformBytes: this.uniformBytes, readbackBytes: this.readbackBytes };
  }
}

/**
 * A counter that also counts image sources handed to the device without passing through a host
 * array the page holds (an ImageBitmap, a canvas, a video frame): WebGL's texImage2D from an image,
 * WebGPU's copyExternalImageToTexture. A transfer, but not of CPU bytes: counted as pixels.
 */
export class ImageCountingTransferCounter extends MutableTransferCounter {
  /** Pixels (width x height) of image sources imported so far. */
  imagePixels = 0;
}

/** The image pixels `counter` has counted so far, or null where it does not count image imports (Node's backends). */
export function imagePixelsOf(counter: TransferCounter): number | null {
  return counter instanceof ImageCountingTransferCounter ? counter.imagePixels : null;
}

/** The traffic between two readings of a counter. */
export function transferDelta(before: TransferTotals, after: TransferTotals): TransferTotals {
  return {
    dataBytes: after.dataBytes - before.dataBytes,
    uniformBytes: after.uniformBytes - before.uniformBytes,
    readbackBytes: after.readbackBytes - before.readbackBytes,
  };
}

type Engine = ReturnType<typeof tf.engine>;

/** When each tensor made from host values was made (a sequence number per data id; reshapes share it). */
const hostMade = new WeakMap<object, number>();
let nextHostTensor = 0;
const watchedEngines = new WeakSet<Engine>();

/**
 * Notes every tensor made from a host array (tfjs's engine.makeTensor: tf.tensor and its kin,
 * tf.zeros, ...; a GPU buffer wrapped with tf.tensor({buffer}) does not go through it), so a
 * measurement can tell that its output came fresh from the host. Installed once per engine, on
 * the first measurement: tensors made before that are not known, which only means no check.
 * Returns the mark that `madeFromHostSince` compares with.
 */
export function hostTensorMark(): number {
  const engine = tf.engine();
  if (!watchedEngines.has(engine)) {
    watchedEngines.add(engine);
    const makeTensor = engine.makeTensor.bind(engine);
    engine.makeTensor = (...args: Parameters<Engine['makeTensor']>) => {
      const t = makeTensor(...args);
      // String tensors never leave the host on any backend: nothing to upload.
      if (t.dtype !== 'string') hostMade.set(t.dataId, nextHostTensor++);
      return t;
    };
  }
  return nextHostTensor;
}

/** Whether `tensor`'s data was made from a host array after `mark` (hostTensorMark). */
export function madeFromHostSince(tensor: tf.Tensor, mark: number): boolean {
  const made = hostMade.get(tensor.dataId);
  return made !== undefined && made >= mark;
}

/** What the page's imageSourcePixels sees of an image source: its size. */
export interface SizedSource {
  readonly width?: number;
  readonly height?: number;
  readonly displayWidth?: number;
  readonly displayHeight?: number;
  readonly videoWidth?: number;
  readonly videoHeight?: number;
  readonly naturalWidth?: number;
  readonly naturalHeight?: number;
}

/** Pixels of an image source as WebGL and WebGPU read it (a video element's video size, an image's natural size, a VideoFrame's display size). */
export function imageSourcePixels(source: SizedSource): number {
  const width = source.videoWidth ?? source.naturalWidth ?? source.displayWidth ?? source.width ?? 0;
  const height = source.videoHeight ?? source.naturalHeight ?? source.displayHeight ?? source.height ?? 0;
  return width * height;
}
