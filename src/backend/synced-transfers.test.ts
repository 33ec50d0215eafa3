import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeSynced } from '../measure/timer.js';
import { useBackend } from '../suite/session.js';
import { startCpu, startWasm } from './host-backends.js';
import { countTransfers, DeviceSkippedError, makeResident, tensorsIn } from './synced-transfers.js';
import { MutableTransferCounter } from './transfer-counter.js';
import type { BackendContext } from './types.js';

const values = () => Float32Array.from({ length: 2 * 4 * 4 * 3 }, (_, i) => i / 7);
const plainHost = () => tf.tensor4d(values(), [2, 4, 4, 3]);

let run: BackendContext;

beforeAll(async () => {
  run = await useBackend();
});

describe('a fresh host tensor that crossed 0 B is an error, not a figure', () => {
  it('countTransfers handed only the counter on webgpu: the lazy upload never ran, and the message says to pass the context', async (ctx) => {
    if (!run.capabilities.hasGpuDevice) return ctx.skip(`backend ${run.name} copies host arrays when the tensor is made: the counter alone sees them`);
    const numTensors = tf.memory().numTensors;
    const counting = countTransfers(run.transfers, async () => plainHost());
    await expect(counting).rejects.toThrow(DeviceSkippedError);
    await expect(countTransfers(run.transfers, async () => plainHost())).rejects.toThrow(
      /countTransfers: its output \(shape \[2, 4, 4, 3\], float32\) was made from a host array during the call, yet 0 B crossed to the webgpu device.*countTransfers\(context, fn\)/,
    );
    // The refused output is disposed: the caller never got it.
    expect(tf.memory().numTensors).toBe(numTensors);
  });

  describe('a hand-built context whose counter sees nothing', () => {
    let wasm: BackendContext;
    let cpu: BackendContext;
    beforeAll(async () => {
      cpu = await startCpu('synced-transfers.test');
      wasm = await startWasm('synced-transfers.test');
    });
    afterAll(async () => {
      await tf.setBackend(run.name);
    });

    it('on wasm (copies host arrays), timeSynced refuses and names the context the harness started', async () => {
      const blind = { ...wasm, transfers: new MutableTransferCounter('a counter installed on nothing') };
      await expect(timeSynced(blind, plainHost)).rejects.toThrow(
        /timeSynced: .*0 B crossed to the wasm device.*use the context the harness started \(useBackend\(\)\)/,
      );
    });

    it('a tensor made before the call is resident input, not a fresh host array: no error at 0 B', async () => {
      const resident = plainHost();
      const { result, bytes } = await countTransfers(wasm, () => resident);
      expect(result).toBe(resident);
      expect(bytes.dataBytes).toBe(0);
      resident.dispose();
    });

    it('on cpu (computes on the host array itself) 0 B is no error', async () => {
      await tf.setBackend('cpu');
      const blind = { ...cpu, transfers: new MutableTransferCounter('a counter installed on nothing') };
      expect(await timeSynced(blind, plainHost)).toBeGreaterThanOrEqual(0);
    });
  });
});

describe('makeResident', () => {
  it('refuses a tensor of another tfjs backend than the context', async () => {
    const cpu = await startCpu('synced-transfers.test');
    const t = plainHost();
    await tf.setBackend(run.name);
    const other = run.name === 'cpu' ? { ...run, name: 'wasm' as const } : run;
    await expect(makeResident(other, [t])).rejects.toThrow(/lives on tfjs backend .*measure on the backend the harness started/);
    await tf.setBackend(cpu.name);
    t.dispose();
    await tf.setBackend(run.name);
  });
});

describe('tensorsIn', () => {
  it('finds tensors in arrays and plain objects, once each, and nothing in numbers or class instances', () => {
    const [a, b] = [tf.scalar(1), tf.scalar(2)];
    expect(tensorsIn({ xs: a, ys: [b, a] })).toEqual([a, b]);
    expect(tensorsIn(3)).toEqual([]);
    expect(tensorsIn(new Map([['a', a]]))).toEqual([]);
    a.dispose();
    b.dispose();
  });
});
