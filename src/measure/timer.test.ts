import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCpu, startWasm } from '../backend/host-backends.js';
import { countTransfers } from '../backend/synced-transfers.js';
import type { TransferTotals } from '../backend/transfer-counter.js';
import type { BackendContext, BackendName } from '../backend/types.js';
import { useBackend } from '../suite/session.js';
import type { StagedTransfer } from '../transfer/strategies/staged-transfer.js';
import { samplePairs } from './paired.js';
import { timeStages } from './stages.js';
import { timeSynced } from './timer.js';

/** The docs' plain-tfjs host strategy (docs/own-pipeline.md before issue 26): normalize on the host, return tf.tensor4d. */
const SHAPE = [2, 8, 8, 3] as const;
const VALUES = SHAPE.reduce((a, b) => a * b, 1);
const pixels = Uint8Array.from({ length: VALUES }, (_, i) => (i * 37) & 255);
const normalized = () => Float32Array.from(pixels, (x) => (x - 127.5) / 127.5);
const plainHost = () => tf.tensor4d(normalized(), [...SHAPE]);

/** The data bytes a call moved to the device, read off the context's counter around it. */
async function dataBytesOf(context: BackendContext, call: () => Promise<unknown>): Promise<number> {
  const before = context.transfers.totals();
  await call();
  return context.transfers.totals().dataBytes - before.dataBytes;
}

let run: BackendContext;

beforeAll(async () => {
  run = await useBackend();
});

// webgpu is the run's backend or absent: starting Dawn a second time would count every byte twice.
describe.each(['webgpu', 'wasm', 'cpu'] as const)("the docs' plain-tfjs host pattern on %s", (name: BackendName) => {
  let context: BackendContext | null = null;
  beforeAll(async () => {
    if (run.name === name) context = run;
    else if (name === 'wasm') context = await startWasm('timer.test: the plain pattern on wasm');
    else if (name === 'cpu') context = await startCpu('timer.test: the plain pattern on cpu');
    else await tf.setBackend(run.name);
  });
  afterAll(async () => {
    await tf.setBackend(run.name);
  });
  const on = (skip: (why: string) => void): BackendContext => {
    if (!context) skip(`the run's backend is ${run.name}; webgpu is measured only as the run's backend`);
    return context as BackendContext;
  };

  it('timeSynced counts 4 B per value and stops its clock only after the upload', async (ctx) => {
    const c = on(ctx.skip);
    const numTensors = tf.memory().numTensors;
    let atReturn: TransferTotals | null = null;
    const before = c.transfers.totals();
    await timeSynced(c, () => {
      const t = plainHost();
      atReturn = c.transfers.totals();
      return t;
    });
    const crossed = c.transfers.totals().dataBytes - before.dataBytes;
    expect(crossed).toBe(4 * VALUES);
    // On webgpu nothing had crossed when the work returned (tfjs uploads lazily): the upload ran
    // inside timeSynced, between the work and the clock's stop. Elsewhere tf.tensor copied it.
    const atReturnBytes = (atReturn as TransferTotals | null)!.dataBytes - before.dataBytes;
    expect(atReturnBytes).toBe(c.capabilities.hasGpuDevice ? 0 : 4 * VALUES);
    expect(tf.memory().numTensors).toBe(numTensors);
  });

  it('countTransfers(context, fn) counts 4 B per value', async (ctx) => {
    const c = on(ctx.skip);
    const { result, bytes } = await countTransfers(c, plainHost);
    result.dispose();
    expect(bytes.dataBytes).toBe(4 * VALUES);
  });

  it('samplePairs with the context times tensors the variants return, each upload counted', async (ctx) => {
    const c = on(ctx.skip);
    let samples = { a: [] as readonly number[], b: [] as readonly number[] };
    const crossed = await dataBytesOf(c, async () => {
      samples = await samplePairs({ context: c, warmupPairs: 1, pairs: 2, runA: plainHost, runB: plainHost });
    });
    // 3 rounds (1 warm-up) of two variants, each one batch of float32.
    expect(crossed).toBe(3 * 2 * 4 * VALUES);
    expect([samples.a.length, samples.b.length]).toEqual([2, 2]);
  });

  it('timeStages counts the upload stage of a strategy whose upload is a plain tf.tensor', async (ctx) => {
    const c = on(ctx.skip);
    const plain: StagedTransfer = {
      id: 'plain-host',
      wireBytesPerElement: 4,
      prepare: (p) => Float32Array.from(p, (x) => (x - 127.5) / 127.5),
      upload: (payload, shape) => tf.tensor(payload as Float32Array, [...shape]),
      compute: (resident) => resident,
    };
    const crossed = await dataBytesOf(c, () => timeStages(c, plain, pixels, SHAPE));
    expect(crossed).toBe(4 * VALUES);
  });
});
