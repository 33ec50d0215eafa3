import * as tf from '@tensorflow/tfjs';
import { activeCapabilities } from '../../backend/capabilities.js';

/**
 * The parts of tfjs-backend-webgpu 4.22's WebGPUBackend (dist/tf-backend-webgpu.node.js) this
 * module relies on. `commandEncoder` is internal: the encoder holding recorded dispatches
 * that are not submitted yet (null when there are none); `submitQueue` submits it.
 */
interface WebGpuBackendParts {
  readonly device: GPUDevice;
  readonly commandEncoder: GPUCommandEncoder | null;
  endComputePassEncoder(): void;
  submitQueue(): void;
  refCount(dataId: object): number;
}

/** One harness-owned device buffer and the tensor that last wrapped it. */
interface Slot {
  readonly buffer: GPUBuffer;
  dataId: object | null;
  lastUse: number;
}

/** How an upload's buffer may be sized. */
export type SlotFit = 'exact' | 'at-least';

/** Free buffers kept for reuse beyond those in use; older ones are destroyed. */
const MAX_FREE_SLOTS = 4;

/**
 * Device buffers owned by the harness, filled with `queue.writeBuffer` and handed to tfjs as
 * zero-copy tensors (`tf.tensor({buffer, zeroCopy: true})`).
 *
 * Why: tfjs uploads a tensor through a staging buffer it creates and destroys per upload, into
 * a pooled buffer; and on this kind of device `writeBuffer` into a buffer that was ever written
 * by the GPU (a copy destination, a shader output, a buffer created mappedAtCreation) is about
 * 10x slower than into one only ever written by `writeBuffer`. So these buffers are only ever
 * written by `writeBuffer` and read by shaders (or copied from, to read them back).
 *
 * Safety:
 * - tfjs never destroys or pools a zero-copy buffer: it marks the tensor data `external` and
 *   only drops its reference when the tensor is disposed (backend releaseResource).
 * - A buffer is reused only when the tensor that last wrapped it has no references left
 *   (backend.refCount(dataId) === 0, which also covers reshapes and other tensors sharing it).
 * - Before any write, dispatches tfjs recorded but has not submitted yet (they may read the
 *   buffer about to be overwritten) are submitted: `writeBuffer` is ordered after work already
 *   submitted to the queue, but before work submitted later.
 */
export class DeviceUploadBuffers {
  private readonly slots: Slot[] = [];
  private uses = 0;

  private constructor(private readonly backend: WebGpuBackendParts) {}

  private static readonly perBackend = new WeakMap<object, DeviceUploadBuffers>();

  /** The buffers of the current backend, which must be webgpu. */
  static current(): DeviceUploadBuffers {
    const backend = tf.backend();
    if (!activeCapabilities().hasGpuDevice) throw new Error(`device upload buffers need the webgpu backend, not ${tf.getBackend()}`);
    let buffers = DeviceUploadBuffers.perBackend.get(backend);
    if (!buffers) {
      buffers = new DeviceUploadBuffers(backend as unknown as WebGpuBackendParts);
      DeviceUploadBuffers.perBackend.set(backend, buffers);
    }
    return buffers;
  }

  /**
   * Writes `parts` one after the other into a free buffer (each part's byteLength a multiple
   * of 4) and returns them as a zero-copy tensor of `shape` and `dtype`. `fit`: 'exact' gives
   * a buffer of exactly the data's size (a tensor that may be read back: tfjs reads a whole
   * buffer), 'at-least' any free buffer big enough (grown when none is). The caller disposes
   * the tensor; the buffer is reused once no tensor refers to it any more.
   */
  upload(parts: readonly ArrayBufferView[], shape: number[], dtype: 'int32' | 'float32', fit: SlotFit): tf.Tensor {
    const byteLength = parts.reduce((sum, p) => sum + p.byteLength, 0);
    const needed = tf.util.sizeFromShape(shape) * 4;
    if (byteLength > needed) throw new RangeError(`${byteLength} bytes do not fit a ${dtype} tensor of shape [${shape.join(', ')}]`);
    this.submitPendingWork();
    const slot = this.freeSlot(needed, fit);
    let offset = 0;
    for (const part of parts) {
      if (part.byteLength % 4 !== 0) throw new RangeError(`writeBuffer needs whole 32-bit words, got ${part.byteLength} bytes`);
      this.backend.device.queue.writeBuffer(slot.buffer, offset, part.buffer, part.byteOffset, part.byteLength);
      offset += part.byteLength;
    }
    const tensor = tf.tensor({ buffer: slot.buffer, zeroCopy: true } as unknown as tf.TensorLike, shape, dtype);
    slot.dataId = tensor.dataId;
    return tensor;
  }

  /** Buffers held (in use or free) and their total bytes. */
  held(): { buffers: number; bytes: number } {
    return { buffers: this.slots.length, bytes: this.slots.reduce((sum, s) => sum + s.buffer.size, 0) };
  }

  /** Destroys the buffers no tensor refers to any more. */
  releaseFree(): void {
    this.submitPendingWork();
    for (const slot of this.slots.filter((s) => this.isFree(s))) this.destroy(slot);
  }

  /** Submits what tfjs recorded but has not submitted, so later writes are ordered after it. */
  private submitPendingWork(): void {
    if (this.backend.commandEncoder !== null) {
      this.backend.endComputePassEncoder();
      this.backend.submitQueue();
    }
  }

  private isFree(slot: Slot): boolean {
    return slot.dataId === null || this.backend.refCount(slot.dataId) === 0;
  }

  private freeSlot(size: number, fit: SlotFit): Slot {
    const free = this.slots.filter((s) => this.isFree(s));
    const fits = free.filter((s) => (fit === 'exact' ? s.buffer.size === size : s.buffer.size >= size));
    let slot = fits.sort((a, b) => a.buffer.size - b.buffer.size || b.lastUse - a.lastUse)[0];
    if (!slot) {
      // Never mappedAtCreation, never a copy destination: writeBuffer into it stays fast.
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
      slot = { buffer: this.backend.device.createBuffer({ size, usage }), dataId: null, lastUse: 0 };
      this.slots.push(slot);
    }
    slot.lastUse = ++this.uses;
    slot.dataId = null;
    // Keep a few free buffers for the next batches; destroy the least recently used beyond that.
    const spare = free.filter((s) => s !== slot).sort((a, b) => b.lastUse - a.lastUse);
    for (const old of spare.slice(MAX_FREE_SLOTS)) this.destroy(old);
    return slot;
  }

  private destroy(slot: Slot): void {
    this.slots.splice(this.slots.indexOf(slot), 1);
    slot.buffer.destroy();
  }
}
