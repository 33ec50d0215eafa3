import * as tf from '@tensorflow/tfjs';
import { activeCapabilities } from './capabilities.js';
import { hostTensorMark, madeFromHostSince, transferDelta, type TransferCounter, type TransferTotals } from './transfer-counter.js';
import type { BackendContext } from './types.js';

/**
 * A measured call whose output was made from a host array during the call, yet no byte of it
 * crossed to a backend that copies host arrays: the figure would leave the upload out, so the
 * measurement refuses to give one. The message says what to do.
 */
export class DeviceSkippedError extends Error {
  override readonly name = 'DeviceSkippedError';
}

/** The tensors in a measured call's result: a tensor, or arrays and plain objects holding tensors (what tf.tidy looks into). */
export function tensorsIn(value: unknown, found: tf.Tensor[] = [], seen = new Set<unknown>()): tf.Tensor[] {
  if (value instanceof tf.Tensor) {
    if (!seen.has(value)) found.push(value);
    seen.add(value);
  } else if (value !== null && typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    const plain = Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype;
    if (plain) for (const item of Object.values(value)) tensorsIn(item, found, seen);
  }
  return found;
}

/**
 * Makes each tensor exist on the context's device and waits until the device has it: the one
 * step every measurement ends with. On webgpu a tensor made from a host array is only a
 * reference to that array until a program first reads it (tfjs uploads lazily), so a sync
 * alone would stop the clock before any byte moved; `context.upload` (the backend's
 * uploadToGPU: a mappedAtCreation buffer, or a staging buffer copied into a pooled one) moves it
 * now, and the sync waits for that copy. On wasm the array was copied into the wasm heap, where
 * its kernels read, when the tensor was made; on cpu the backend computes on the host array
 * itself: there the tensor is "on the device" once made, upload does nothing and the sync
 * returns at once (ops there run to completion on the calling thread). On tensorflow the
 * upload creates the TensorFlow tensor (its copy to GPU:0) and the sync reads one element.
 */
export async function makeResident(context: BackendContext, tensors: readonly tf.Tensor[]): Promise<void> {
  const backend = tf.findBackend(context.name);
  for (const t of tensors) {
    const info = tf.engine().state.tensorInfo.get(t.dataId);
    if (!info) throw new Error(`a measured tensor (shape [${t.shape.join(', ')}]) was disposed before the device had it: dispose it after the measurement`);
    if (info.backend !== backend) {
      const lives = Object.entries(tf.engine().registry).find(([, b]) => b === info.backend)?.[0] ?? 'another';
      throw new Error(
        `a measured tensor lives on tfjs backend ${lives}, the measurement's context is ${context.name}: ` +
          'measure on the backend the harness started (useBackend), without tf.setBackend in between',
      );
    }
    context.upload(t);
  }
  for (const t of tensors) await context.sync(t);
}

/** What a measurement counts with: a started backend (its counter; outputs made resident on its device) or a bare counter. */
export type CountSource = BackendContext | TransferCounter;

/** A measured call's result, the bytes it moved to the device, and its milliseconds. */
export interface OnDevice<T> {
  readonly result: T;
  readonly bytes: TransferTotals;
  /** Host monotonic clock from the call until every tensor of its result was on the device (with a context). */
  readonly ms: number;
}

/**
 * Runs `produce` and, given a context, makes every tensor of its result resident on the device
 * (makeResident) before the clock stops; counts the host->device bytes of both. A tensor of the
 * result made from a host array during the call that crossed 0 B, on a backend that copies host
 * arrays, throws DeviceSkippedError (`what` names the call in its message). The caller disposes
 * the result. The shared core of timeSynced, countTransfers, the samplers and the stages.
 */
export async function onDevice<T>(source: CountSource, what: string, produce: () => T | Promise<T>): Promise<OnDevice<T>> {
  const context = 'transfers' in source ? source : null;
  const counter = context ? context.transfers : (source as TransferCounter);
  const mark = hostTensorMark();
  const before = counter.totals();
  const start = performance.now();
  const produced = produce();
  // Synchronous work is not awaited: no extra microtask inside the timed span.
  const result = produced instanceof Promise ? await produced : produced;
  const tensors = tensorsIn(result);
  try {
    if (context) await makeResident(context, tensors);
    const ms = performance.now() - start;
    const bytes = transferDelta(before, counter.totals());
    checkCrossed(what, context, tensors, mark, bytes);
    return { result, bytes, ms };
  } catch (error) {
    // The caller never gets the result: its tensors would leak.
    for (const t of tensors) if (!t.isDisposed) t.dispose();
    throw error;
  }
}

/** Throws DeviceSkippedError when a fresh host tensor of the result crossed 0 B to a backend that copies host arrays. */
function checkCrossed(what: string, context: BackendContext | null, tensors: readonly tf.Tensor[], mark: number, bytes: TransferTotals): void {
  // cpu computes on the host array itself (and its counter still counts the hand-over); tensorflow is unverified.
  const copies = (context?.capabilities ?? activeCapabilities()).copiesHostArrays;
  if (!copies || bytes.dataBytes > 0) return;
  const fresh = tensors.find((t) => t.size > 0 && madeFromHostSince(t, mark));
  if (!fresh) return;
  const backend = context?.name ?? tf.getBackend();
  const head =
    `${what}: its output (shape [${fresh.shape.join(', ')}], ${fresh.dtype}) was made from a host array during the call, ` +
    `yet 0 B crossed to the ${backend} device, so its figure would leave the upload out. `;
  const fix = context
    ? `The context's byte counter (${context.transfers.boundary}) saw nothing: use the context the harness started (useBackend()), not one built by hand.`
    : 'Pass the BackendContext, not its counter: countTransfers(context, fn) makes the output resident on the device before the count stops ' +
      '(webgpu uploads a host tensor only when a program first reads it).';
  throw new DeviceSkippedError(head + fix);
}

/**
 * Runs `fn` and returns its result with the host->device traffic it caused (`context.transfers`).
 * Given the context, every tensor of the result (a tensor, or arrays / plain objects of them) is
 * made resident on the device first, so a host tensor's upload is counted on every backend; given
 * a bare counter nothing is uploaded, and a fresh host tensor that crossed 0 B is an error.
 */
export async function countTransfers<T>(source: CountSource, fn: () => T | Promise<T>): Promise<{ result: T; bytes: TransferTotals }> {
  const { result, bytes } = await onDevice(source, 'countTransfers', fn);
  return { result, bytes };
}

/** Runs `produce` and returns its tensor with the host->device traffic it caused until the device finished it (the caller disposes the tensor). */
export async function countSynced<T extends tf.Tensor>(context: BackendContext, produce: () => T): Promise<{ result: T; bytes: TransferTotals }> {
  const { result, bytes } = await onDevice(context, 'countSynced', produce);
  return { result, bytes };
}

/** The host->device traffic of producing one tensor, counted until the device finished it; the tensor is disposed. */
export async function bytesOfSynced(context: BackendContext, produce: () => tf.Tensor): Promise<TransferTotals> {
  const { result, bytes } = await countSynced(context, produce);
  result.dispose();
  return bytes;
}
