import { makeBaseline } from '../../src/results/baseline.js';
import { compareWithBaseline, type Comparison } from '../../src/results/compare.js';
import { CLOCK } from '../../src/measure/timer.js';
import type { MetricInput } from '../../src/results/metrics.js';
import { ratioFromPairs, timeMetric, bytesMetric } from '../../src/results/metrics.js';
import { testRunRecord } from './run-record.js';
import type { Metric, RunRecord } from '../../src/results/schema.js';
import { sweepMetrics, type SweepPoint } from '../../src/suite/sweep.js';
import type { EpochResult, TrainingResult } from '../../src/train/experiment.js';
import { curveMetrics, flatMemoryMetrics, inputBoundMetrics, perEpochMetrics, trainingStageMetrics } from '../../src/train/metrics.js';
import { MNIST_SPEEDUP_ID } from '../../src/results/metric-ids.js';

const stamp = (scenario: string, metrics: MetricInput[]): Metric[] => metrics.map((m) => ({ ...m, scenario }));

/** Deterministic noise around `center`: n samples, +-spread. */
function around(center: number, n: number, spread: number, phase: number): number[] {
  return Array.from({ length: n }, (_, i) => center * (1 + spread * Math.sin(i * 1.7 + phase)));
}

/** A sweep like the one measured on lavapipe: device-normalize loses at small batches, wins at 512. */
function sweepPoints(): SweepPoint[] {
  const times: Record<number, [number, number]> = { 32: [0.11, 0.18], 64: [0.14, 0.2], 128: [0.19, 0.22], 256: [0.33, 0.32], 512: [0.53, 0.46] };
  return Object.entries(times).map(([batch, [a, b]], k) => {
    const pixels = Number(batch) * 784;
    const bytes = (data: number) => ({ dataBytes: data, uniformBytes: 48, readbackBytes: 0 });
    return {
      batch: Number(batch),
      pixelsPerBatch: pixels,
      samples: { a: around(a, 30, 0.05, k), b: around(b, 30, 0.05, k + 1) },
      bytes: { a: bytes(4 * pixels), b: bytes(pixels) },
    };
  });
}

/**
 * Stage figures of one group as measureStages labels them ({ table: 'stages', group, strategy,
 * stage }): per strategy host, upload, compute, the pipelined total and the device's limit
 * (computed), with the details' clocks.
 */
function stageGroupMetrics(group: string, stages: Record<string, { host: number; upload: number; compute: number; limit: number }>): MetricInput[] {
  const labels = (strategy: string, stage: string) => ({ table: 'stages', group, strategy, stage });
  return Object.entries(stages).flatMap(([strategy, t]) => [
    timeMetric(`${group}.stage-ms.host.${strategy}`, t.host, 20, {
      detail: `median host stage of ${strategy}; host clock, no device work`,
      labels: labels(strategy, 'host'),
    }),
    ...(['upload', 'compute'] as const).map((stage) =>
      timeMetric(`${group}.stage-ms.${stage}.${strategy}`, t[stage], 20, {
        detail: `median ${stage} stage of ${strategy}; synced after the stage (includes one sync floor); ${CLOCK}`,
        labels: labels(strategy, stage),
      }),
    ),
    timeMetric(`${group}.stage-ms.total.${strategy}`, 0.9 * (t.host + t.upload + t.compute), 20, {
      detail: `median of ${strategy} whole; ${CLOCK}`,
      labels: labels(strategy, 'total'),
    }),
    {
      ...timeMetric(`${group}.stage-ms.limit.${strategy}`, t.limit, 1, {
        detail: 'computed: sync floor 0.05 ms + bytes at writeBuffer speed + a pass at shader-copy speed; writeBuffer 25 GB/s',
        labels: labels(strategy, 'limit'),
      }),
      source: 'computed' as const,
    },
  ]);
}

/** A training run of 2 epochs x 5 steps with falling losses, as the quick scale gives. */
function trainingResult(): TrainingResult {
  const memory = { tensors: 60, tensorBytes: 1_253_760, bytesInUse: 1_253_760, bytesAllocated: 77_882_948, harnessBytes: 401_408 };
  const epochs: EpochResult[] = [0, 1].map((e) => {
    const losses = Array.from({ length: 5 }, (_, i) => 2.3 - 0.07 * (5 * e + i));
    const run = (ms: number) => ({
      losses,
      stepMs: around(ms, 5, 0.1, e),
      inputMs: around(ms / 10, 5, 0.1, e),
      epochMs: 5 * ms,
      images: 320,
      newTensorsPerStep: [e === 0 ? 12 : 0, 0, 0, 0, 0],
    });
    const runs = { 'cpu-normalize': run(1100), 'device-normalize': run(1000), resident: run(900) };
    return { epoch: e + 1, runs, accuracy: { correct: 130 + 120 * e, count: 400, accuracy: (130 + 120 * e) / 400 }, maxWeightDiff: 0, memory };
  });
  const plan = { epochs: 2, stepsPerEpoch: 5, batchSize: 64, shuffleSeed: 10, modelSeed: 42, evalBatch: 200 };
  const footprint = { peakBytes: 59_772_688, newTensors: 0, newBytes: 0 };
  return {
    plan,
    stepsPerEpoch: 5,
    epochs,
    memoryBefore: { ...memory, bytesInUse: 0 },
    inUseAtStart: 0,
    stepFootprint: { 'cpu-normalize': footprint, 'device-normalize': footprint },
    leakedTensors: 0,
    poolRelease: null,
  };
}

/**
 * A run record as a full quick run writes it, for the report and chart tests: the speedup
 * scenario, the sweep and training figures made by the real metric builders, a kernel table,
 * stage times, notes and one error.
 */
export function reportTestRecord(): RunRecord {
  const training = trainingResult();
  const speedupSamples = { a: around(0.56, 40, 0.04, 0), b: around(0.53, 40, 0.04, 2) };
  const metrics: Metric[] = [
    ...stamp('speedup', [
      ratioFromPairs(MNIST_SPEEDUP_ID, speedupSamples, { detail: 'median of per-pair ratios', labels: { a: 'cpu-normalize', b: 'device-normalize' } }),
      timeMetric('mnist-transfer.time.cpu-normalize', 0.56, 40, { detail: 'median', labels: { strategy: 'cpu-normalize' } }),
    ]),
    ...stamp('cpu-normalize', [bytesMetric('mnist-transfer.upload-bytes.cpu-normalize', 200_704, 'measured', { detail: 'counted at the WebGPU API' })]),
    ...stamp('stages', [
      ...stageGroupMetrics('mnist-transfer', {
        'cpu-normalize': { host: 0.085, upload: 0.087, compute: 0.048, limit: 0.042 },
        'device-normalize': { host: 0.0003, upload: 0.074, compute: 0.167, limit: 0.071 },
      }),
    ]),
    ...stamp('coco', [
      ratioFromPairs(
        'coco.speedup.transfer',
        { a: around(4, 20, 0.03, 0), b: around(1.6, 20, 0.03, 1) },
        {
          detail: `median over 20 interleaved pairs of time(cpu-normalize)/time(device-normalize); 16 COCO images letterboxed to 128x128, [16,128,128,3]; ${CLOCK}`,
          labels: { a: 'cpu-normalize', b: 'device-normalize', part: 'transfer' },
        },
      ),
      ratioFromPairs(
        'coco.speedup.batch',
        { a: around(29, 20, 0.2, 0), b: around(28, 20, 0.2, 3) },
        {
          detail: 'the whole batch: (decode + collate + transfer) of cpu-normalize over the same for device-normalize',
          labels: { a: 'cpu-normalize', b: 'device-normalize', part: 'batch' },
        },
      ),
    ]),
    ...stamp('dtypes', [
      ratioFromPairs(
        'dtypes.32x3x224x224.speedup-vs-float32.uint8',
        { a: around(3, 20, 0.02, 0), b: around(6, 20, 0.02, 1) },
        {
          detail: `median over interleaved rounds of time(float32)/time(uint8); an ImageNet-sized batch, sent as [32,224,224,3]; ${CLOCK}`,
          labels: { table: 'dtypes', batch: '32x3x224x224', quantity: 'speedup-vs-float32', dtype: 'uint8' },
        },
      ),
    ]),
    ...stamp('dtype-stages', [
      ...stageGroupMetrics('dtypes.32x3x224x224', {
        uint8: { host: 0.013, upload: 0.95, compute: 5.2, limit: 3.6 },
        int8: { host: 10.4, upload: 0.92, compute: 5.3, limit: 3.6 },
        float16: { host: 59.6, upload: 1.95, compute: 5.7, limit: 4.4 },
        float32: { host: 15.5, upload: 3.1, compute: 0.07, limit: 0.83 },
      }),
    ]),
    ...stamp('alternatives', [
      ...stageGroupMetrics('alternatives.32x224x224x3', {
        'device-normalize': { host: 0.002, upload: 1.44, compute: 6.85, limit: 3.54 },
        'naive-tfjs': { host: 0.0017, upload: 15.8, compute: 50.9, limit: 6.11 },
      }),
    ]),
    ...stamp('coco-segmentation', [
      timeMetric('coco.stage.host.cpu-normalize', 2.1, 20, {
        detail: 'host stage',
        labels: { quantity: 'stage-ms', stage: 'host', strategy: 'cpu-normalize' },
      }),
      timeMetric('coco.stage.upload.cpu-normalize', 4.2, 20, {
        detail: 'upload stage <b>not bold</b>',
        labels: { quantity: 'stage-ms', stage: 'upload', strategy: 'cpu-normalize' },
      }),
    ]),
    ...stamp('training', [
      ...perEpochMetrics(training, 'the mnist package split'),
      ...curveMetrics(training),
      ...flatMemoryMetrics(training),
      ...inputBoundMetrics(training),
      ...trainingStageMetrics(training),
    ]),
    ...stamp('sweep', sweepMetrics(sweepPoints(), { a: 'cpu-normalize', b: 'device-normalize' }, 'the WebGPU API')),
  ];
  return testRunRecord(metrics, {
    kernelTables: {
      'cpu-normalize-profile': {
        rows: [
          { name: 'Conv2DBackpropFilter', calls: 1, totalMs: 4.5, meanMs: 4.5, percent: 45 },
          { name: 'Conv2D', calls: 2, totalMs: 2.5, meanMs: 1.25, percent: 25 },
        ],
        kernelCount: 30,
        totalKernelMs: 10,
        step: 'train step',
        timing: 'GPU timestamp queries',
      },
    },
    notes: ['The WebGPU adapter is a software rasterizer (lavapipe): its numbers describe it, not a GPU.'],
    errors: [{ scenario: 'kinetics-video', test: 'decodes clips', message: 'ffmpeg not found <script>alert(1)</script>\nsecond line' }],
  });
}

/**
 * The fixture run judged against a baseline made from it with a few changes, so every kind of
 * verdict shows: one exact metric regressed, one metric missing from the run, one new in it, and
 * one ratio measured in one process far below its baseline (information, not a regression).
 */
export function reportTestComparison(record: RunRecord): Comparison {
  const changed = record.metrics
    .filter((m) => m.id !== 'sweep.b512.speedup')
    .map((m) => (m.id === 'mnist-transfer.upload-bytes.cpu-normalize' ? { ...m, value: 50_176 } : m))
    // A one-process ratio far below its baseline: information, never 'regressed'.
    .map((m) => (m.id === 'coco.speedup.transfer' && m.ci ? { ...m, value: 2 * m.value, ci: [2 * m.ci[0], 2 * m.ci[1]] as [number, number] } : m));
  const gone: Metric = { id: 'memory.bytes.raw-batch', scenario: 'memory', kind: 'exact', value: 50_176, unit: 'B', source: 'computed' };
  const baseline = makeBaseline({ ...record, metrics: [...changed, gone], errors: [] }, 'fixture', {}, '2026-12-01T10:00:00.000Z');
  return compareWithBaseline(record, baseline, { allowProfileMismatch: false, gateTiming: false });
}
