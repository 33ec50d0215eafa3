import type * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import type { BackendContext } from '../backend/types.js';
import { timeSynced } from './timer.js';

/** A tensor stand-in that logs its disposal, and a context whose sync logs the tensor it waited on. */
function fakes(log: string[]) {
  const output = { dispose: () => log.push('dispose') } as unknown as tf.Tensor;
  const context = {
    sync: async (t: tf.Tensor) => {
      expect(t).toBe(output);
      log.push('sync');
    },
  } as unknown as BackendContext;
  return { output, context };
}

describe('timeSynced', () => {
  it('runs the work, waits for the device to have its output, then disposes it', async () => {
    const log: string[] = [];
    const { output, context } = fakes(log);
    const ms = await timeSynced(context, () => {
      log.push('work');
      return output;
    });
    expect(log).toEqual(['work', 'sync', 'dispose']);
    expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('waits for asynchronous work (a tf.data pipeline) before the sync, and times it', async () => {
    const log: string[] = [];
    const { output, context } = fakes(log);
    const ms = await timeSynced(context, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      log.push('work');
      return output;
    });
    expect(log).toEqual(['work', 'sync', 'dispose']);
    expect(ms).toBeGreaterThanOrEqual(15);
  });
});
