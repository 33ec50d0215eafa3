import * as tf from '@tensorflow/tfjs';
import type { BackendContext } from '../backend/types.js';
import type { StagedTransfer } from '../transfer/strategies/staged-transfer.js';
import { median } from './statistics.js';

/** One batch's stages, each timed on the host clock and (upload, compute) stopped after a device sync. */
export interface StageSample {
  /** Host preparation: normalize / encode on the CPU (no device work). */
  readonly hostMs: number;
  /** Host payload to a resident device tensor, synced. */
  readonly uploadMs: number;
  /** Resident tensor to the model input on the device, synced (0 work for cpu-normalize: a sync alone). */
  readonly computeMs: number;
}

/** Times the three stages of a staged transfer on one batch, syncing after each; disposes what it made. */
export async function timeStages(context: BackendContext, t: StagedTransfer, pixels: Uint8Array, shape: readonly number[]): Promise<StageSample> {
  let start = performance.now();
  const payload = t.prepare(pixels);
  const hostMs = performance.now() - start;
  start = performance.now();
  const resident = t.upload(payload, shape);
  await context.sync(resident);
  const uploadMs = performance.now() - start;
  start = performance.now();
  const out = t.compute(resident, shape);
  await context.sync(out);
  const computeMs = performance.now() - start;
  out.dispose();
  if (out !== resident) resident.dispose();
  return { hostMs, uploadMs, computeMs };
}

/**
 * Device time of the compute stage from GPU timestamp queries (tf.time's kernelMs), null where
 * the backend has none (tfjs reports host time or an error there). Each kernel then gets its own
 * pass, so this is measured apart from the wall-clock stages.
 */
export async function computeKernelMs(context: BackendContext, t: StagedTransfer, pixels: Uint8Array, shape: readonly number[]): Promise<number | null> {
  if (!context.capabilities.gpuTimestamps) return null;
  const resident = t.upload(t.prepare(pixels), shape);
  await context.sync(resident);
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
  context.upload(probe);
  await context.sync(probe);
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await context.sync(probe);
    times.push(performance.now() - start);
  }
  probe.dispose();
  return median(times);
}
