import * as tf from '@tensorflow/tfjs';
import { makeResident, onDevice, type OnDevice } from '../backend/synced-transfers.js';
import type { BackendContext } from '../backend/types.js';
import type { StagedTransfer } from '../transfer/strategies/staged-transfer.js';
import { median } from './statistics.js';

/** One batch's stages, each timed on the host clock and (upload, compute) stopped once the stage's output is resident on the device. */
export interface StageSample {
  /** Host preparation: normalize / encode on the CPU (no device work). */
  readonly hostMs: number;
  /** Host payload to a resident device tensor, synced. */
  readonly uploadMs: number;
  /** Resident tensor to the model input on the device, synced (0 work for cpu-normalize: a sync alone). */
  readonly computeMs: number;
}

/**
 * Times the three stages of a staged transfer on one batch, each until its output is resident on
 * the device (onDevice: uploaded and synced, so a strategy whose `upload` returns a plain
 * `tf.tensor(values)` has its upload timed in the upload stage, not in the next one); disposes
 * what it made. An upload stage whose fresh host tensor crossed 0 B is an error.
 */
export async function timeStages(context: BackendContext, t: StagedTransfer, pixels: Uint8Array, shape: readonly number[]): Promise<StageSample> {
  const start = performance.now();
  const payload = t.prepare(pixels);
  const hostMs = performance.now() - start;
  const upload = await onDevice(context, `${t.id} upload stage`, () => t.upload(payload, shape));
  const resident = upload.result;
  let compute: OnDevice<tf.Tensor>;
  try {
    compute = await onDevice(context, `${t.id} compute stage`, () => t.compute(resident, shape));
  } catch (error) {
    if (!resident.isDisposed) resident.dispose();
    throw error;
  }
  compute.result.dispose();
  if (compute.result !== resident) resident.dispose();
  return { hostMs, uploadMs: upload.ms, computeMs: compute.ms };
}

/**
 * Device time of the compute stage from GPU timestamp queries (tf.time's kernelMs), null where
 * the backend has none (tfjs reports host time or an error there). Each kernel then gets its own
 * pass, so this is measured apart from the wall-clock stages.
 */
export async function computeKernelMs(context: BackendContext, t: StagedTransfer, pixels: Uint8Array, shape: readonly number[]): Promise<number | null> {
  if (!context.capabilities.gpuTimestamps) return null;
  const resident = t.upload(t.prepare(pixels), shape);
  await makeResident(context, [resident]);
  let out: tf.Tensor | null = null;
  const info = await tf.time(() => {
    out = t.compute(resident, shape);
  });
  const produced = out as tf.Tensor | null;
  if (produced && produced !== resident) produced.dispose();
  resident.dispose();
  return typeof info.kernelMs === 'number' ? info.kernelMs : null;
}

/**
 * The sync floor: a submit and wait with nothing queued (median of `repeats`), the least any
 * synced measurement on this device can show.
 */
export async function syncFloorMs(context: BackendContext, repeats = 50): Promise<number> {
  const probe = tf.scalar(0);
  await makeResident(context, [probe]);
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await context.sync(probe);
    times.push(performance.now() - start);
  }
  probe.dispose();
  return median(times);
}
