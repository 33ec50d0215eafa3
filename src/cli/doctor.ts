import * as tf from '@tensorflow/tfjs';
import { BackendUnavailableError } from '../backend/errors.js';
import { isTensorflowInstalled } from '../backend/host-backends.js';
import { describeBackend, startBackend } from '../backend/start.js';
import { countTransfers } from '../backend/transfer-counter.js';
import { maxAbsDiff } from '../measure/statistics.js';
import { median } from '../measure/statistics.js';
import { CLOCK } from '../measure/timer.js';
import { ARTICLE_NORMALIZATION, normalizeOnHost } from '../transfer/normalization.js';
import { deviceNormalize } from '../transfer/strategies.js';
import type { BackendArgs } from './args.js';

type Status = 'ok' | 'warn' | 'fail' | 'info';
const MARK: Record<Status, string> = { ok: '[ok]  ', warn: '[warn]', fail: '[FAIL]', info: '[info]' };
const say = (status: Status, text: string) => console.log(`${MARK[status]} ${text}`);

const UPLOAD_MIB = 64;
const UPLOAD_REPEATS = 7;

/**
 * `npm run doctor`: is the backend the one you think, is the device really computing, and what
 * host->device bandwidth does it give. Exit 0 when the backend works, 1 when it does not.
 */
export async function runDoctor(args: BackendArgs): Promise<number> {
  const major = Number(process.versions.node.split('.')[0]);
  say(major >= 20 ? 'ok' : 'fail', `Node ${process.version} (needs >= 20)`);
  say('info', isTensorflowInstalled() ? '@tensorflow/tfjs-node-gpu is installed (not exercised in CI)' : '@tensorflow/tfjs-node-gpu not installed (optional; needed only for --backend tensorflow)');

  let context;
  try {
    context = await startBackend(args.backend, args.requireBackend);
  } catch (error) {
    if (!(error instanceof BackendUnavailableError)) throw error;
    say('fail', `backend ${args.backend} does not start: ${error.message}`);
    return 1;
  }
  say('ok', describeBackend(context));
  if (context.adapter) {
    const a = context.adapter;
    say(a.isSoftware ? 'warn' : 'ok', a.isSoftware ? `software adapter (${a.description}): runs on the CPU, not a GPU` : `hardware adapter: ${a.vendor} ${a.device || a.architecture} (${a.description})`);
    say(a.features.includes('timestamp-query') ? 'ok' : 'warn', `timestamp-query ${a.features.includes('timestamp-query') ? 'available: kernel profiles have device times' : 'missing: no per-kernel device times'}`);
    say('info', `shader-f16 ${a.features.includes('shader-f16') ? 'offered by the adapter (tfjs 4.22 neither enables nor uses it)' : 'not offered by the adapter'}`);
  } else if (args.backend === 'auto') {
    say('warn', 'no WebGPU adapter: running on a fallback backend');
  }

  // The device must compute the right thing: a packed-bytes normalize of all 256 byte values.
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
  const out = deviceNormalize().toDevice({ images: bytes, shape: [1, 16, 16, 1] });
  const got = (await out.data()) as Float32Array;
  out.dispose();
  const want = normalizeOnHost(bytes, ARTICLE_NORMALIZATION);
  const worst = maxAbsDiff(got, want);
  say(worst <= 1e-6 ? 'ok' : 'fail', `device computes the normalize kernel correctly (max abs error ${worst.toExponential(1)})`);

  // Host->device bandwidth: float32 uploads, synced, median of several.
  const values = new Float32Array((UPLOAD_MIB * 1024 * 1024) / 4).fill(0.5);
  const times: number[] = [];
  let measuredBytes = 0;
  for (let i = 0; i < UPLOAD_REPEATS; i++) {
    const start = performance.now();
    const { result: t, bytes: moved } = await countTransfers(context.transfers, async () => {
      const t = tf.tensor1d(values);
      context.upload(t);
      await context.sync(t);
      return t;
    });
    times.push(performance.now() - start);
    measuredBytes = moved.dataBytes;
    t.dispose();
  }
  const ms = median(times.slice(1)); // the first allocates the pool's buffer
  const gbps = measuredBytes / (ms / 1000) / 1e9;
  say('info', `host->device upload: ${gbps.toFixed(2)} GB/s (median of ${UPLOAD_REPEATS - 1} uploads of ${UPLOAD_MIB} MiB, ${measuredBytes.toLocaleString('en-US')} B counted at ${context.transfers.boundary}; ${CLOCK})`);
  say('info', context.adapter && !context.adapter.isSoftware
    ? 'for reference: PCIe 4.0 x16 peaks near 25 GB/s and 5.0 x16 near 50 GB/s; far less on a discrete GPU points at the link or the driver path'
    : 'no GPU link involved: this is host memory bandwidth through the backend\'s copy path');
  return worst <= 1e-6 && major >= 20 ? 0 : 1;
}
