// Article section 6: how much faster is sending uint8 and normalizing on the device?
// A benchmark, not a timed test: it asserts nothing about time; the figures go to the run
// record and are judged against baselines. vitest's own bench() (tinybench) runs tasks one
// after another and cannot interleave A/B pairs, so this uses the harness's paired sampler.
import { beforeAll, describe, it } from 'vitest';
import type { BackendContext } from '../src/backend/types.js';
import { BatchLoader, type Batch } from '../src/data/loader.js';
import { samplePairs } from '../src/measure/paired.js';
import { estimateSpeedup } from '../src/measure/speedup.js';
import { CLOCK, timeSynced } from '../src/measure/timer.js';
import { speedupMetric } from '../src/results/speedup-metric.js';
import { recordMetrics } from '../src/results/task-meta.js';
import { cpuNormalize, deviceNormalize } from '../src/transfer/strategies.js';
import { useBackend, useConfig, useMnist } from '../src/suite/session.js';
import { ARTICLE_BATCH, SIZES } from '../src/suite/sizes.js';

const SCENARIO = 'speedup';
let context: BackendContext;
let batches: Batch[];

beforeAll(async () => {
  context = await useBackend();
  // Full batches only, so every pair moves the same 64 images' worth of bytes.
  batches = [...new BatchLoader(await useMnist(), { ...ARTICLE_BATCH, dropLast: true }).epoch(0)];
});

describe('speedup of device-normalize over cpu-normalize (section 6)', () => {
  it('times both strategies in interleaved pairs, synced with the device', async ({ task }) => {
    const sizes = SIZES[useConfig().scale];
    const host = cpuNormalize(context);
    const device = deviceNormalize();
    // Each pair sends the same batch both ways, whichever goes first; the next pair the next batch.
    const batchOf = (round: number) => batches[round % batches.length]!;
    const samples = await samplePairs({
      warmupPairs: sizes.warmupPairs,
      pairs: sizes.pairs,
      runA: (round) => timeSynced(context, () => host.toDevice(batchOf(round))),
      runB: (round) => timeSynced(context, () => device.toDevice(batchOf(round))),
    });
    const speedup = estimateSpeedup(samples);
    const what = 'one [64,28,28,1] batch from uint8 pixels to a normalized float32 tensor on the device';
    recordMetrics(
      task,
      context,
      speedupMetric(
        'mnist-transfer.speedup',
        SCENARIO,
        speedup,
        samples,
        `median over interleaved pairs of time(cpu-normalize)/time(device-normalize), 95% percentile-bootstrap CI; ${what}; ${CLOCK}`,
      ),
      {
        id: 'mnist-transfer.time.cpu-normalize',
        scenario: SCENARIO,
        kind: 'time',
        value: speedup.medianMsA,
        unit: 'ms',
        n: speedup.pairs,
        source: 'measured',
        detail: `median; normalize on the host + upload float32; ${what}; ${CLOCK}`,
      },
      {
        id: 'mnist-transfer.time.device-normalize',
        scenario: SCENARIO,
        kind: 'time',
        value: speedup.medianMsB,
        unit: 'ms',
        n: speedup.pairs,
        source: 'measured',
        detail: `median; upload packed uint8 + normalize kernel; ${what}; ${CLOCK}`,
      },
    );
  });
});
