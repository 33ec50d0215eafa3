/** Bytes that crossed from the host into a backend, split by what carried them. */
export interface TransferTotals {
  /** Tensor data written by the host into backend memory (buffers, heap). */
  readonly dataBytes: number;
  /** Small per-dispatch parameter blocks (WebGPU uniforms); not tensor data. */
  readonly uniformBytes: number;
  /** Bytes read back from the device to the host. */
  readonly readbackBytes: number;
}

/** A running count of host<->backend traffic, read as before/after differences. */
export interface TransferCounter {
  /** Where the bytes are counted, said so a reader knows what the figure means. */
  readonly boundary: string;
  totals(): TransferTotals;
}

/** A counter whose totals are plain mutable fields; the installers below feed it. */
export class MutableTransferCounter implements TransferCounter {
  dataBytes = 0;
  uniformBytes = 0;
  readbackBytes = 0;
  constructor(readonly boundary: string) {}
  totals(): TransferTotals {
    return { dataBytes: this.dataBytes, uniformBytes: this.uniformBytes, readbackBytes: this.readbackBytes };
  }
}

/** The traffic between two readings of a counter. */
function transferDelta(before: TransferTotals, after: TransferTotals): TransferTotals {
  return {
    dataBytes: after.dataBytes - before.dataBytes,
    uniformBytes: after.uniformBytes - before.uniformBytes,
    readbackBytes: after.readbackBytes - before.readbackBytes,
  };
}

/** Runs `fn` and returns its result with the traffic it caused (await it for async work). */
export async function countTransfers<T>(counter: TransferCounter, fn: () => Promise<T>): Promise<{ result: T; bytes: TransferTotals }> {
  const before = counter.totals();
  const result = await fn();
  return { result, bytes: transferDelta(before, counter.totals()) };
}
