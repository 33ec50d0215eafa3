// Article section 11, as vitest benchmarks (`npx vitest bench --run`): per wire type, the
// latency of sending an MNIST batch already encoded in that type and decoding it on the device
// (tinybench underneath, every sample synced). The ratios with CIs come from interleaved
// rounds in 11-dtypes.perf.ts; tinybench runs tasks one after the other.
import { bench, describe } from 'vitest';
import { benchName, BENCH_OPTIONS, syncedBench, encodedMnistBatches, useBackend, sendPayload, WIRE_DTYPES, wireByteLength } from 'gpu-transfer-perf';

const context = await useBackend();
const batches = await encodedMnistBatches(8);
const elements = batches[0]!.uint8.payload.values.length;

describe('section 11: a [64,28,28,1] batch per wire type, transfer + device decode', () => {
  for (const dtype of WIRE_DTYPES) {
    bench(
      benchName(dtype, wireByteLength(dtype, elements)),
      syncedBench(context, batches, (b) => sendPayload(context, b[dtype].payload, b[dtype].deviceNormalization)),
      BENCH_OPTIONS,
    );
  }
});
