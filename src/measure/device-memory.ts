import * as tf from '@tensorflow/tfjs';
import { activeCapabilities } from '../backend/capabilities.js';
import { DeviceUploadBuffers } from '../transfer/webgpu/device-upload.js';

/**
 * Device memory as tfjs and the harness account for it, read now. On webgpu, tfjs keeps every
 * buffer a disposed tensor freed in a pool keyed by (size, usage) and never gives it back:
 * `bytesInUse` counts buffers held by live tensors, `bytesAllocated` those plus the pool.
 * The harness's own upload buffers (src/transfer/webgpu/device-upload.ts) are outside tfjs's
 * accounting and counted apart.
 */
export interface DeviceMemory {
  readonly tensors: number;
  /** Bytes of all live tensors' data, whatever backend holds them (tf.memory().numBytes). */
  readonly tensorBytes: number;
  /** webgpu: tfjs buffers held by live tensors (numBytesInGPU); null elsewhere. */
  readonly bytesInUse: number | null;
  /** webgpu: tfjs buffers created and not destroyed, the free pool included (numBytesAllocatedInGPU). */
  readonly bytesAllocated: number | null;
  /** webgpu: the harness's upload buffers, in use or kept free. */
  readonly harnessBytes: number | null;
}

/** Reads tfjs's and the harness's device memory accounting. */
export function deviceMemory(): DeviceMemory {
  const m = tf.memory() as tf.MemoryInfo & { numBytesInGPU?: number; numBytesAllocatedInGPU?: number };
  return {
    tensors: m.numTensors,
    tensorBytes: m.numBytes,
    bytesInUse: m.numBytesInGPU ?? null,
    bytesAllocated: m.numBytesAllocatedInGPU ?? null,
    harnessBytes: activeCapabilities().hasGpuDevice ? DeviceUploadBuffers.current().held().bytes : null,
  };
}

/** Device bytes held in all (tfjs's pool included, harness buffers included), or null off webgpu. */
export function heldDeviceBytes(m: DeviceMemory): number | null {
  return m.bytesAllocated === null ? null : m.bytesAllocated + (m.harnessBytes ?? 0);
}

/**
 * The parts of tfjs-backend-webgpu 4.22's BufferManager (dist/buffer_manager.js) touched here.
 * It has no method that frees only the pool: `dispose()` destroys every buffer, live tensors'
 * too, and is meant for backend teardown.
 */
interface BufferManagerParts {
  freeBuffers: Map<string, GPUBuffer[]>;
  numFreeBuffers: number;
  numBytesAllocated: number;
}
interface WebGpuBackendParts {
  readonly device: GPUDevice;
  readonly bufferManager: BufferManagerParts;
  readonly commandEncoder: GPUCommandEncoder | null;
  endComputePassEncoder(): void;
  submitQueue(): void;
}

/** What releasing the pool gave back. */
export interface PoolRelease {
  readonly before: DeviceMemory;
  readonly after: DeviceMemory;
  /** Free tfjs buffers destroyed. */
  readonly buffers: number;
  /** Device bytes given back to the driver: tfjs's pool plus the harness's free upload buffers. */
  readonly releasedBytes: number;
}

/**
 * tfjs's answer to PyTorch's `torch.cuda.empty_cache()` does not exist: the webgpu backend
 * keeps freed buffers for reuse until the backend is disposed. This destroys the FREE buffers
 * of its pool (and the harness's free upload buffers), keeping those of live tensors, after the
 * device finished all submitted work. It reaches into tfjs internals (bufferManager.freeBuffers);
 * the map's keys are kept, since BufferManager.releaseBuffer returns early (and would leak
 * accounting) when the map is empty. Null on other backends (wasm's heap never shrinks; the cpu
 * backend frees with the tensors).
 */
export async function releaseBufferPool(): Promise<PoolRelease | null> {
  if (!activeCapabilities().hasGpuDevice) return null;
  const backend = tf.backend() as unknown as WebGpuBackendParts;
  if (backend.commandEncoder !== null) {
    backend.endComputePassEncoder();
    backend.submitQueue();
  }
  await backend.device.queue.onSubmittedWorkDone();
  const before = deviceMemory();
  const manager = backend.bufferManager;
  let buffers = 0;
  for (const list of manager.freeBuffers.values()) {
    for (const buffer of list.splice(0)) {
      manager.numBytesAllocated -= buffer.size;
      manager.numFreeBuffers--;
      buffer.destroy();
      buffers++;
    }
  }
  DeviceUploadBuffers.current().releaseFree();
  const after = deviceMemory();
  return { before, after, buffers, releasedBytes: (heldDeviceBytes(before) ?? 0) - (heldDeviceBytes(after) ?? 0) };
}
