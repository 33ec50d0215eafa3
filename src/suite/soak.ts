import type { BackendContext } from '../backend/types.js';
import type { Batch } from '../data/loader.js';
import type { TransferStrategy } from '../transfer/strategies/strategies.js';

/**
 * Section 13's load (the soak, perf/13-soak.spec.ts and perf/browser/13-soak.perf.ts): sends
 * `count` batches through `strategy`, from `offset` round `batches`, each synced on the device and
 * disposed, as a training loop's input stage would.
 */
export async function sendSyncedBatches(
  context: BackendContext,
  strategy: TransferStrategy,
  batches: readonly Batch[],
  count: number,
  offset: number,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const out = strategy.toDevice(batches[(offset + i) % batches.length]!);
    await context.sync(out);
    out.dispose();
  }
}
