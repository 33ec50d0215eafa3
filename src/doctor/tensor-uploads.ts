/**
 * Doctor's tfjs uploads: a float32 tensor of each size made resident on the device and synced
 * (backend/device-ops.ts tensorOps), timed in the browser's page and, at the same sizes, on
 * Node's running backend, so the two rates stand side by side (`--browser`). Host-free: the page
 * runs it too.
 */
import { tensorOps } from '../backend/device-ops.js';
import type { BackendContext } from '../backend/types.js';
import type { PagePlan, PageUpload } from './browser/findings.js';

/** What each size's uploads were timed through, for the figures' detail. */
export const TENSOR_UPLOAD_PATH = 'tf.tensor1d of the bytes as float32, made resident on the device (the backend uploadToGPU) and synced';

/**
 * The milliseconds of each timed upload at each of the plan's sizes up to `maxBytes` (a device's
 * maxBufferSize). An error at one size ends the list there: the sizes timed, and the error.
 */
export async function timeTensorUploads(
  context: BackendContext,
  plan: PagePlan,
  maxBytes: number,
  say: (line: string) => void = () => {},
): Promise<{ uploads: PageUpload[]; error: string | null }> {
  const sizes = plan.uploads.filter((u) => u.bytes <= maxBytes);
  // One host array, filled once (not zero: a zero page could be special-cased); smaller sizes are views of it.
  const host = new Uint8Array(Math.max(0, ...sizes.map((u) => u.bytes))).fill(0x5a);
  const ops = tensorOps(context);
  const uploads: PageUpload[] = [];
  try {
    for (const { bytes, warmup, reps } of sizes) {
      uploads.push({ bytes, times: await ops.upload(host.subarray(0, bytes), warmup, reps) });
      say(`  ${context.name} tfjs upload ${bytes} B`);
    }
  } catch (error) {
    return { uploads, error: error instanceof Error ? error.message : String(error) };
  }
  return { uploads, error: null };
}
